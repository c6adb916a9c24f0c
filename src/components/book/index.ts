export { BookCover, type CoverSize } from './BookCover';
export { VoiceBadge } from './VoiceBadge';

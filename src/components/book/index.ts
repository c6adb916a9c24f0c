export { BookCover } from './BookCover';
export { VoiceBadge } from './VoiceBadge';

export { BookCover } from './BookCover';
export { VoiceBadge } from './VoiceBadge';
export { BookTile, type TileAction } from './BookTile';

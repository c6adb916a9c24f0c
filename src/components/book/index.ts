export { BookCover, type CoverSize } from './BookCover';

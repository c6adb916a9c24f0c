export {
  filterOptions,
  readLibraryView,
  selectBooks,
  sortOptions,
  summaryLine,
  toLibraryBooks,
  writeLibraryView,
  type LibraryBook,
  type LibraryFilter,
  type LibrarySort,
  type LibraryView,
} from './books';
export { keptLibraryBooks } from './kept';

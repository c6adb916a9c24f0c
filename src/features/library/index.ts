export {
  filterOptions,
  readLibraryView,
  selectBooks,
  sortOptions,
  summarize,
  summaryLine,
  toLibraryBooks,
  writeLibraryView,
  type LibraryBook,
  type LibraryFilter,
  type LibrarySort,
  type LibraryView,
} from './books';

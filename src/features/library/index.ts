export {
  filterOptions,
  readLibraryView,
  selectBooks,
  sortOptions,
  summarize,
  toLibraryBooks,
  writeLibraryView,
  type LibraryBook,
  type LibraryFilter,
  type LibrarySort,
  type LibraryView,
} from './books';

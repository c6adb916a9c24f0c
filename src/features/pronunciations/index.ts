export { BookPronunciations } from './BookPronunciations';

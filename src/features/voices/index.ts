export { BookPronunciations } from './BookPronunciations';
export { VoicePicker } from './VoicePicker';

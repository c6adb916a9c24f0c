export { VoicePicker } from './VoicePicker';

export { VoicePicker } from './VoicePicker';
export { previewKey, useVoicePreview } from './preview';

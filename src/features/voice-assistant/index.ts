export { AskAboutBook } from './AskAboutBook';
export { useRecap, useVoiceAssistant } from './hooks';
export { Previously, restedFor } from './Previously';
export { clearKeptConversation, dismissRecap, loadConversation } from './history';
export {
  ask,
  checkStatus,
  configureVoiceAssistant,
  disconnect,
  NOBODY_HEARS,
  resetVoiceAssistant,
  setContext,
  start,
  stop,
  talk,
  watchStatus,
} from './store';
export { talkState, type Recap, type ServiceStatus, type TalkState, type TranscriptEntry } from './state';

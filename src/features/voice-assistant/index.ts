export { AskAboutBook } from './AskAboutBook';
export { useVoiceAssistant } from './hooks';
export { clearKeptConversation, dismissRecap, loadConversation } from './history';
export {
  ask,
  checkStatus,
  configureVoiceAssistant,
  disconnect,
  resetVoiceAssistant,
  setContext,
  start,
  stop,
  talk,
  watchStatus,
} from './store';
export { talkState, type Recap, type ServiceStatus, type TalkState, type TranscriptEntry } from './state';

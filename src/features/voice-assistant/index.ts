export { AskAboutBook } from './AskAboutBook';
export { useVoiceAssistant } from './hooks';
export {
  ask,
  checkStatus,
  configureVoiceAssistant,
  connect,
  disconnect,
  resetVoiceAssistant,
  sendText,
  setContext,
  start,
  stop,
  talk,
  talkState,
  watchStatus,
  type ClientStatus,
  type ServiceStatus,
  type TalkState,
  type TranscriptEntry,
} from './store';

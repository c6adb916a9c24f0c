export { AskAboutBook } from './AskAboutBook';
export { useVoiceAssistant } from './hooks';
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
  talkState,
  watchStatus,
  type ServiceStatus,
  type TalkState,
  type TranscriptEntry,
} from './store';

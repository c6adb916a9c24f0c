export { useVoiceAssistant } from './hooks';
export {
  checkStatus,
  configureVoiceAssistant,
  connect,
  disconnect,
  resetVoiceAssistant,
  sendText,
  setContext,
  start,
  stop,
  watchStatus,
  type ClientStatus,
  type ServiceStatus,
} from './store';

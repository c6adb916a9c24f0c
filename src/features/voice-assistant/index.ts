export { AskAboutBook } from './AskAboutBook';
export { useHearing, useOfferedRecap, useRecap, useServiceStatus, useVoiceAssistant, useVoiceStatus } from './hooks';
export { Previously, restedFor } from './Previously';
export { clearKeptConversation, dismissRecap, loadConversation } from './history';
export { disconnect, NOBODY_HEARS } from './connection';
export { configureVoiceAssistant } from './deps';
export { ask, resetVoiceAssistant, setContext, talk, watchStatus } from './store';
export { talkState, type Recap, type TalkState, type TranscriptEntry } from './state';

/**
 * The voice assistant. Its client state lives in store.ts: `state` (the Valtio proxy the page
 * renders from) and `runtime` (one plain, non-reactive object for the live session's socket and
 * audio, the data cache and counters, which must not trigger renders); nothing else mutable sits
 * at module level. The actions are in files named for what they do (service.ts, connection.ts,
 * conversation.ts, history.ts). The app hands the feature its data cache once: attachVoiceAssistant
 * (service.ts).
 */
export { AskAboutBook } from './AskAboutBook';
export { useHearing, useOfferedRecap, useRecap, useServiceStatus, useVoiceAssistant, useVoiceStatus } from './hooks';
export { Previously, RecapBox, restedFor } from './Previously';
export { clearKeptConversation, dismissRecap, loadConversation } from './history';
export { disconnect, NOBODY_HEARS } from './connection';
export { configureVoiceAssistant } from './deps';
export { ask, resetVoiceAssistant, setContext, talk, watchStatus } from './service';
export { talkState, type Recap, type TalkState, type TranscriptEntry } from './store';

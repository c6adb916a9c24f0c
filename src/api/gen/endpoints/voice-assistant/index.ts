export * from './get-voice-assistant-status';
export * from './start-voice-assistant';
export * from './stop-voice-assistant';
export * from './connect-voice-assistant';
export * from './get-voice-conversation';
export * from './clear-voice-conversation';

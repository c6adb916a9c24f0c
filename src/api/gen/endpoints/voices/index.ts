export * from './list-voices';
export * from './get-voice-sample';

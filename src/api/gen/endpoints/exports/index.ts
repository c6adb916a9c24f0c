export * from './get-audio-download';
export * from './list-audio-exports';
export * from './start-audio-export';
export * from './cancel-audio-export';

export * from './get-audio-stream';
export * from './get-audio-metadata';
export * from './get-audio-cover';
export * from './get-audio-transcript';
export * from './get-audio-cast';
export * from './put-audio-cast';
export * from './get-audio-playlist';
export * from './get-media';

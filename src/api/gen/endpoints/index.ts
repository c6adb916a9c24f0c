export * from './audio/audio';
export * from './auth/auth';
export * from './environment/environment';
export * from './files/files';
export * from './jobs/jobs';
export * from './progress/progress';
export * from './voice-assistant/voice-assistant';

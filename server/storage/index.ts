export * from './types';
export { LocalFileStorage } from './local';

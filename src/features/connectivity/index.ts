export { useOnline } from './hooks';
export { connectivity } from './state';

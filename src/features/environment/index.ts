export { useEnvironment } from './environment';

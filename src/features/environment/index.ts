export { useEnvironment } from './hooks';
export {
  fallbackEnvironment,
  loadEnvironment,
  PRODUCTION_HOST,
  resetEnvironment,
  state as environmentState,
  type EnvironmentState,
} from './store';

export { fallbackEnvironment, PRODUCTION_HOST, useEnvironment, type EnvironmentOptions } from './environment';

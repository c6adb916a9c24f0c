export * from './get-environment';

export * from './get-pronunciations';
export * from './put-pronunciations';

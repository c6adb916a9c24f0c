export * from './get-recent-progress';
export * from './get-progress';
export * from './save-progress';
export * from './delete-progress';

export * from './upload-file';
export * from './delete-file';

export * from './list-jobs';
export * from './create-job';
export * from './preview-job';
export * from './get-job';
export * from './cancel-job';
export * from './get-job-steps';
export * from './retry-job';
export * from './reconvert-job';

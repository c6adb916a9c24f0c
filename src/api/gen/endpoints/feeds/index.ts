export * from './list-feeds';
export * from './create-feed';
export * from './delete-feed';
export * from './get-feed-xml';
export * from './get-feed-episode';
export * from './get-feed-cover';

export * from './list-feeds';
export * from './create-feed';
export * from './delete-feed';
export * from './get-feed-xml';
export * from './get-feed-episode';
export * from './get-feed-episode-chapters';
export * from './get-feed-episode-transcript';
export * from './get-feed-cover';

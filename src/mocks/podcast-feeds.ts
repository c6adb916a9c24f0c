import { getCreateFeedMockHandler } from '../api/gen/endpoints/feeds/create-feed.msw';
import { getDeleteFeedMockHandler } from '../api/gen/endpoints/feeds/delete-feed.msw';
import type { Feed } from '../api/gen/model';
import { answer, type ReplyOptions } from './answer';
import { bookJobId } from './audio';

/** The private podcast feed of the sample book (src/mocks/audio.ts), as the server answers it. */
export function feedFixture(overrides: Partial<Feed> = {}): Feed {
  return {
    id: '5f0c9a1e-8d2b-4c3a-9e7f-1b2c3d4e5f60',
    url: 'https://listen.example.org/feeds/q8X2mVbK3rT9wLpZs4YdNc7Hf1GjEu6AoRiQk0Wx5Sa.xml',
    job_id: bookJobId,
    title: 'The Tell-Tale Heart',
    created_at: '2030-01-01T12:00:00Z',
    ...overrides,
  };
}

export function createFeedHandler(feed: Feed = feedFixture(), options: ReplyOptions = {}) {
  return getCreateFeedMockHandler(answer(options, () => feed));
}

export function deleteFeedHandler(options: ReplyOptions = {}) {
  return getDeleteFeedMockHandler(answer(options, () => undefined));
}

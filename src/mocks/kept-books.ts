import { bookJobId } from './audio';

/**
 * A book kept on this device as the kept index holds it (src/features/kept-books/state.ts,
 * KeptBook): The Tell-Tale Heart, 48 MB, persistent storage granted.
 */
export function keptBookFixture(overrides: Partial<ReturnType<typeof baseKeptBook>> = {}) {
  return { ...baseKeptBook(), ...overrides };
}

function baseKeptBook() {
  return {
    id: bookJobId as string,
    title: 'The Tell-Tale Heart',
    author: 'Edgar Allan Poe' as string | null,
    voice: 'OpenAI',
    duration: 60,
    chapters: 3,
    bytes: 48 * 1024 * 1024,
    keptAt: '2025-03-01T10:00:00Z',
    createdAt: '2025-02-01T10:00:00Z',
    keys: [] as string[],
    readAlong: [] as number[],
    persisted: true,
  };
}

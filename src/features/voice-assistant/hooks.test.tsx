import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { voiceCache } from './data';
import { useVoiceAssistant } from './hooks';
import { runtime } from './store';

/** A page of the feature whose own effect reads the data cache at once, as the voice page's status watch does. */
function Page({ seen }: { seen: QueryClient[] }) {
  useVoiceAssistant();
  useEffect(() => {
    seen.push(voiceCache());
  }, [seen]);
  return null;
}

afterEach(() => {
  runtime.stopWatchingCache?.();
  Object.assign(runtime, { cache: null, stopWatchingCache: null });
});

describe('the voice assistant opened at its address', () => {
  it("has the app's data cache before its page's effects run, though the app has not attached it yet", () => {
    const client = new QueryClient();
    const seen: QueryClient[] = [];
    render(
      <QueryClientProvider client={client}>
        <Page seen={seen} />
      </QueryClientProvider>,
    );
    expect(seen).toEqual([client]);
  });
});

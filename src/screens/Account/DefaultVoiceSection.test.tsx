import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { ThemeProvider } from 'styled-components';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configureApi } from '../../api/http';
import { preferencesHandler, putPreferencesHandler } from '../../mocks/account';
import { errorBodyFixture } from '../../mocks/fixtures';
import { voicesHandler } from '../../mocks/voices';
import { themes } from '../../styles/theme';
import { DefaultVoiceSection } from './DefaultVoiceSection';

const nova = { provider: 'openai', voice_id: 'nova' } as const;
const sent: unknown[] = [];
const server = setupServer(
  preferencesHandler(nova, {}, 1.5),
  putPreferencesHandler({}, { default_voice: nova, default_speed: 1.5 }),
  voicesHandler(),
);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', async ({ request }) => {
    if (request.method === 'PUT') sent.push(await request.clone().json());
  });
  configureApi({ baseUrl: 'http://localhost', getToken: () => 'token', onUnauthorized: () => {} });
});
afterEach(() => {
  server.resetHandlers();
  sent.length = 0;
});
afterAll(() => server.close());

async function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ThemeProvider theme={themes.light}>
        <DefaultVoiceSection />
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return within(await screen.findByRole('region', { name: 'Voice and speed for new books' }));
}

describe('the voice and speed for new books', () => {
  it('shows the saved speed, and saves another one alone, at once', async () => {
    const section = await renderSection();
    const speed = (await section.findByRole('combobox', { name: 'Listening speed' })) as HTMLSelectElement;
    expect(speed.value).toBe('1.5');
    expect(speed).toHaveAccessibleDescription(/^Saved as soon as you choose/);
    expect([...speed.options].map((o) => o.textContent)).toEqual([
      '0.75×',
      'Normal (1×)',
      '1.25×',
      '1.5×',
      '1.75×',
      '2×',
    ]);
    fireEvent.change(speed, { target: { value: '2' } });
    expect(await section.findByText('Saved: new books play at 2×.')).toBeTruthy();
    expect(sent).toEqual([{ default_speed: 2 }]);
    expect(speed.value).toBe('2');
  });

  it('starts at normal speed when none is saved', async () => {
    server.use(preferencesHandler(null));
    const section = await renderSection();
    const speed = (await section.findByRole('combobox', { name: 'Listening speed' })) as HTMLSelectElement;
    expect(speed.value).toBe('1');
  });

  it('says why when the speed cannot be saved, and keeps the saved one', async () => {
    server.use(
      putPreferencesHandler({
        status: 422,
        body: errorBodyFixture('Default speed must be one of 0.75, 1, 1.25, 1.5, 1.75, 2, null'),
      }),
    );
    const section = await renderSection();
    const speed = (await section.findByRole('combobox', { name: 'Listening speed' })) as HTMLSelectElement;
    fireEvent.change(speed, { target: { value: '0.75' } });
    expect((await section.findByRole('alert')).textContent).toBe(
      'Default speed must be one of 0.75, 1, 1.25, 1.5, 1.75, 2, null',
    );
    expect(speed.value).toBe('1.5');
  });
});

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { createJob, signIn, SHORT_TEXT, waitForJob } from '../testing/jobs';

/**
 * A reader's pronunciations are applied to every later conversion: an entry the list accepts
 * must never make a conversion fail, whatever characters it holds, and one it cannot use is
 * refused when it is saved, naming it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ENCODER_THREADS: '1' } });
});
afterAll(async () => {
  await t?.close();
});

const put = (headers: Record<string, string>, entries: { text: string; say_as: string }[]) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/pronunciations', headers, payload: entries });

async function convert(headers: Record<string, string>, content: string) {
  // A text must be 100 characters long at least: a story follows the words under test.
  const created = await createJob(t, headers, { title: 'Said right', content: `${content} ${SHORT_TEXT}` });
  expect(created.statusCode, created.body).toBe(201);
  return waitForJob(t, headers, (created.json() as { id: string }).id);
}

describe('pronunciations in conversions', () => {
  it('with a hyphen, a dot or a bracket convert every later text, those with the words and those without', async () => {
    const h = await signIn(t, 'jean-luc@example.com');
    const saved = await put(h, [
      { text: 'Jean-Luc', say_as: 'zhan luke' },
      { text: 'X-ray', say_as: 'ex ray' },
      { text: 'St. Ives', say_as: 'saint ives' },
      { text: '[sic]', say_as: 'sick' },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    const withWords = await convert(h, 'Jean-Luc took the X-ray to St. Ives [sic]. He came home at dusk.');
    expect(withWords.status, withWords.error_message ?? '').toBe('COMPLETED');
    const without = await convert(h, 'Nothing here is said another way.');
    expect(without.status, without.error_message ?? '').toBe('COMPLETED');
  });

  it('are refused when saved if they cannot be used, naming the entry; never at conversion', async () => {
    const h = await signIn(t, 'refused@example.com');
    const cases: [{ text: string; say_as: string }, string][] = [
      [{ text: '...', say_as: 'dot dot dot' }, 'Entry 1: "..." has no letters, digits or symbols to match'],
      [{ text: 'Bell\u0007', say_as: 'bell' }, 'Entry 1: "BellU+0007" holds a control character'],
      [{ text: 'Frodo', say_as: '!!!' }, 'Entry 1: how to read "Frodo" needs letters or digits a voice can say'],
    ];
    for (const [entry, detail] of cases) {
      const refused = await put(h, [entry]);
      expect(refused.statusCode).toBe(422);
      expect((refused.json() as { detail: string }).detail).toContain(detail);
    }
    const emoji = await put(h, [{ text: '🙂', say_as: 'smiley' }]);
    expect(emoji.statusCode, emoji.body).toBe(200);
    const job = await convert(h, 'She smiled 🙂 and waved.');
    expect(job.status, job.error_message ?? '').toBe('COMPLETED');
  });

  it('either refuse a list or let every later conversion complete (random entries and texts)', async () => {
    const h = await signIn(t, 'random@example.com');
    // Words and scripts joined by the characters a pattern reads as its own, or by nothing.
    const letters = fc.constantFrom('Jean', 'Luc', 'é', 'Ω', 'д', '東', '🙂', '1', 'X');
    const joins = fc.constantFrom('-', "'", '.', '(', ')', '[', ']', '\\', '/', '|', '^', '$', '*', '+', '?', ' ', '');
    const word = fc.tuple(fc.option(joins), letters, joins, letters, fc.option(joins)).map((p) => p.join(''));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ text: word, say_as: fc.constantFrom('said so', 'zhan luke', 'x') }), {
          minLength: 1,
          maxLength: 4,
        }),
        async (entries) => {
          const saved = await put(h, entries);
          if (saved.statusCode === 422) {
            expect((saved.json() as { detail: string }).detail).toMatch(/Entry \d|listed twice|characters/);
            return;
          }
          expect(saved.statusCode, saved.body).toBe(200);
          const text = `The keeper said ${entries.map((e) => e.text).join(' and ')} at dusk. Then he slept.`;
          const job = await convert(h, text);
          expect(job.status, job.error_message ?? '').toBe('COMPLETED');
        },
      ),
      { numRuns: 10, endOnFailure: true },
    );
  }, 120_000);
});

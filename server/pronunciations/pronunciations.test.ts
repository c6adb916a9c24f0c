import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app';
import { signIn } from '../testing/jobs';

let t: TestApp;
let ann: Record<string, string>;
let bob: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ env: { WORKERS: 'none' } });
  ann = await signIn(t, 'ann.says@example.com');
  bob = await signIn(t, 'bob.says@example.com');
});
afterAll(async () => {
  await t?.close();
});

const put = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/pronunciations', headers, payload: payload as object });
const get = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/v1/pronunciations', headers });

describe("a user's pronunciations", () => {
  it("start empty, are saved whole (trimmed, in order) and are the user's own", async () => {
    expect((await get(ann)).json()).toEqual([]);
    const saved = await put(ann, [
      { text: '  Hermione ', say_as: ' her-my-oh-nee ' },
      { text: 'New   York', say_as: 'New York City' },
    ]);
    expect(saved.statusCode).toBe(200);
    const list = [
      { text: 'Hermione', say_as: 'her-my-oh-nee' },
      { text: 'New York', say_as: 'New York City' },
    ];
    expect(saved.json()).toEqual(list);
    expect((await get(ann)).json()).toEqual(list);
    expect((await get(bob)).json()).toEqual([]);
    // A new list replaces the old one; an empty one clears it.
    await put(ann, [{ text: 'GIF', say_as: 'jiff' }]);
    expect((await get(ann)).json()).toEqual([{ text: 'GIF', say_as: 'jiff' }]);
    await put(ann, []);
    expect((await get(ann)).json()).toEqual([]);
  });

  it('refuse a word listed twice, a word without letters and a blank reading, with 422 naming the entry', async () => {
    const twice = await put(ann, [
      { text: 'Gandalf', say_as: 'gan-dalf' },
      { text: 'GANDALF', say_as: 'gan-dolf' },
    ]);
    expect(twice.statusCode).toBe(422);
    expect(twice.json().detail).toBe('"GANDALF" is listed twice (entries 1 and 2)');
    const symbols = await put(ann, [{ text: '...', say_as: 'dot dot dot' }]);
    expect(symbols.statusCode).toBe(422);
    expect(symbols.json().detail).toBe('Entry 1: "..." has no letters, digits or symbols to match');
    const blank = await put(ann, [{ text: 'Frodo', say_as: '   ' }]);
    expect(blank.statusCode).toBe(422);
    expect(blank.json().detail).toBe('Entry 1: say how to read "Frodo"');
    expect((await put(ann, [{ text: '', say_as: 'x' }])).statusCode).toBe(422);
    const notAList = await put(ann, { text: 'a', say_as: 'b' });
    expect(notAList.statusCode).toBe(422);
    expect(notAList.json().detail).toBe('Request body must be a JSON array');
    expect((await put(ann, [{ text: 'x'.repeat(101), say_as: 'b' }])).statusCode).toBe(422);
    expect((await get(ann)).json()).toEqual([]);
    expect((await get({})).statusCode).toBe(401);
  });
});

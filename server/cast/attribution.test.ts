import { CAST_STORIES } from '../testing/cast-stories';
import { attributeBook } from './attribution';
import { NARRATOR } from './types';

describe('attributeBook on the annotated stories', () => {
  it.each(CAST_STORIES.map((s) => [s.name, s] as const))('%s: every quote and its speaker', (_name, story) => {
    const result = attributeBook(story.chapters.map((text) => ({ text })));
    const found = result.chapters.map((spans, c) =>
      spans.map((s) => [(story.chapters[c] ?? '').slice(s.charStart, s.charEnd), s.speaker]),
    );
    expect(found).toEqual(story.lines);
    // Every speaker but the narrator is one of the characters.
    const ids = new Set(result.characters.map((c) => c.id));
    for (const s of result.chapters.flat()) expect(s.speaker === NARRATOR || ids.has(s.speaker)).toBe(true);
  });

  it('merges Captain Harris, Harris and the captain into one man', () => {
    const story = CAST_STORIES.find((s) => s.name.startsWith('one man'));
    const { characters } = attributeBook((story?.chapters ?? []).map((text) => ({ text })));
    expect(characters.find((c) => c.id === 'captain-harris')).toEqual({
      id: 'captain-harris',
      name: 'Captain Harris',
      aliases: expect.arrayContaining(['Harris', 'the captain']) as string[],
      gender: 'male',
    });
    expect(characters.map((c) => c.id).sort()).toEqual(['ada-vance', 'captain-harris']);
  });

  it('finds each character’s gender from titles and pronouns', () => {
    const byName = (name: string) => CAST_STORIES.find((s) => s.name.startsWith(name))?.chapters ?? [];
    const genders = (name: string) =>
      Object.fromEntries(attributeBook(byName(name).map((text) => ({ text }))).characters.map((c) => [c.id, c.gender]));
    expect(genders('pronoun tags')).toEqual({ elena: 'female', paul: 'male' });
    expect(genders('British single quotes among apostrophes (curly)')).toEqual({ 'mrs-pike': 'female', tom: 'male' });
  });

  it('never casts the narrator as a character named "I", nor the author', () => {
    const text = ['"Stay," I said.', '"Every story is a journey," the author said.', '"Why?" asked Nora.'].join('\n\n');
    const { characters, chapters } = attributeBook([{ text }]);
    expect(characters.map((c) => c.name)).toEqual(['Nora']);
    expect(chapters[0]?.map((s) => s.speaker)).toEqual([NARRATOR, NARRATOR, 'nora']);
  });

  it('knows "his wife" by the surname she shares, and a pet name as the full one', () => {
    const text = [
      'Mr. Grey came home late. Mrs. Grey was waiting, and Elizabeth Grey sat by the fire.',
      '"Where have you been?" cried his wife.',
      '"Lizzy, tell your mother I was at the office."',
      '"Papa was at the office," Lizzy said.',
    ].join('\n\n');
    const { characters, chapters } = attributeBook([{ text }]);
    expect(chapters[0]?.map((s) => s.speaker)).toEqual(['mrs-grey', 'mr-grey', 'elizabeth-grey']);
    expect(characters.find((c) => c.id === 'elizabeth-grey')?.aliases).toContain('Lizzy');
  });

  it('leaves a word in quotes inside a sentence (a title, a scare quote) to the narrator', () => {
    const text = 'Marta called the shed "the workshop" and laughed.\n\n"It is one," said Marta.';
    expect(attributeBook([{ text }]).chapters[0]?.map((s) => s.speaker)).toEqual([NARRATOR, 'marta']);
  });

  it('gives every quote of a long paragraph a speaker, its tag reaching only the quotes near it', () => {
    const text = `Marta spoke. "One," said Marta. ${'"More." '.repeat(8)}`;
    const spans = attributeBook([{ text }]).chapters[0] ?? [];
    expect(spans).toHaveLength(9);
    expect(spans.slice(0, 4).map((s) => s.speaker)).toEqual(['marta', 'marta', 'marta', 'marta']);
    for (const s of spans) expect(s.speaker).toMatch(/\S/);
  });

  it('starts every chapter as a new scene', () => {
    const first = 'Nora and Piet sat by the fire.\n\n"Late again," said Nora.\n\n"Always," said Piet.';
    const second = '"Is the fire still lit?"';
    const { chapters } = attributeBook([{ text: first }, { text: second }]);
    expect(chapters[1]).toHaveLength(1);
    expect(chapters[1]?.[0]?.confidence).toBeLessThanOrEqual(0.5);
  });

  it('gives a quote with no evidence a guess with a low confidence', () => {
    const { chapters } = attributeBook([{ text: 'The rain stopped.\n\n"At last."' }]);
    expect(chapters[0]).toEqual([{ charStart: 19, charEnd: 29, speaker: NARRATOR, confidence: expect.any(Number) }]);
    expect(chapters[0]?.[0]?.confidence).toBeLessThan(0.3);
  });
});

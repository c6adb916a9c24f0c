import { describe, expect, it } from 'vitest';
import { reconvertingNotice, speakerName, speakerTone } from './speakers';

const cast = {
  characters: [
    { id: 'marta', name: 'Marta', aliases: [], gender: 'female' as const, voice_id: 'nova', lines: 9 },
    { id: 'tobias', name: 'Tobias', aliases: [], gender: 'male' as const, voice_id: 'onyx', lines: 4 },
    { id: 'ines', name: 'Inês', aliases: [], gender: 'female' as const, voice_id: 'shimmer', lines: 2 },
    { id: 'bo', name: 'Bo', aliases: [], gender: 'unknown' as const, voice_id: 'echo', lines: 1 },
  ],
};

describe('speakers', () => {
  it('names a character, the narrator, and someone the cast does not know (yet)', () => {
    expect(speakerName(cast, 'tobias')).toBe('Tobias');
    expect(speakerName(cast, 'narrator')).toBe('Narrator');
    expect(speakerName(undefined, 'tobias')).toBe('Someone');
  });

  it("gives characters their tones in the cast's order, never the narrator's", () => {
    expect(cast.characters.map((c) => speakerTone(cast, c.id))).toEqual(['info', 'success', 'danger', 'info']);
    expect(speakerTone(cast, 'narrator')).toBe('neutral');
  });

  it('says which chapters are read again', () => {
    expect(reconvertingNotice([3])).toBe('Chapter 3 is being read again with the new voice');
    expect(reconvertingNotice([2, 5, 7])).toBe('Chapters 2, 5 and 7 are being read again with the new voices');
  });
});

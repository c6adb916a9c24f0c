import { describe, expect, it } from 'vitest';
import { isFrontMatterTitle } from './front-matter';

describe('front matter by title', () => {
  it('knows the pages before the text, however they are written', () => {
    for (const title of [
      'Copyright',
      'COPYRIGHT PAGE',
      'Table of Contents',
      'Contents',
      'Dedication',
      'Title Page',
      'Half-title',
      'Epigraph',
      'Also by Ada Marlow',
      'Praise for The Lighthouse',
      'Cover',
    ])
      expect(isFrontMatterTitle(title), title).toBe(true);
  });

  it('leaves chapters alone, even those whose titles share a word', () => {
    for (const title of [
      'Chapter 1',
      'The Title of the Song',
      'Contents of the Chest',
      'A Dedication to the Sea',
      'Covered in Snow',
      'Opening',
      'Prologue',
    ])
      expect(isFrontMatterTitle(title), title).toBe(false);
  });
});

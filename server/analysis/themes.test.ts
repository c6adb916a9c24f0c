import { toString } from 'nlcst-to-string';
import { VFile } from 'vfile';
import { findThemes, keywordProcessor, treeWithoutPositions } from './themes';

const PARAGRAPHS = [
  'The old lighthouse stood at the edge of the cliff, watching the grey sea roll in. Every evening the keeper climbed the spiral stairs and lit the great lamp.',
  'Ships far out on the water saw the beam and turned away from the rocks.\nIn winter the wind howled around the tower and salt crusted the windows.',
  '  The keeper wrote in his logbook each night, noting the weather and the passing vessels. The lamp, the logbook and the sea were his whole life!',
  '"Will the storm reach the lighthouse?" asked the young keeper. The old keeper said the storm would pass before the lamp was lit.',
];

/** What retext-keywords found, as the themes read it: words and phrases with their scores. */
function found(file: VFile) {
  const data = file.data as {
    keywords: { stem: string; score: number; matches: { node: Parameters<typeof toString>[0] }[] }[];
    keyphrases: {
      stems: string[];
      score: number;
      weight: number;
      matches: { nodes: Parameters<typeof toString>[0][] }[];
    }[];
  };
  return {
    keywords: data.keywords.map((k) => [k.stem, k.score, k.matches.map((m) => toString(m.node))]),
    keyphrases: data.keyphrases.map((p) => [
      p.stems,
      p.score,
      p.weight,
      p.matches.map((m) => m.nodes.map(toString).join('')),
    ]),
  };
}

describe('the themes', () => {
  it('finds the same keywords and phrases in the tree parsed a paragraph at a time, without positions', () => {
    const sample = PARAGRAPHS.join('\n\n').repeat(3);
    const processor = keywordProcessor();
    const whole = new VFile(sample);
    processor.runSync(processor.parse(whole), whole);
    const ours = new VFile();
    const tree = treeWithoutPositions(processor, sample);
    processor.runSync(tree, ours);
    expect(found(ours)).toEqual(found(whole));
    expect(found(ours).keywords.length).toBeGreaterThan(5);
    expect(toString(tree)).toBe(sample.replace(/\n[ \t]*\n/g, '\n\n'));
    expect(JSON.stringify(tree)).not.toContain('"position"');
  });

  it('names what the text is about, leaving out the names of its people and places', () => {
    const sample = PARAGRAPHS.join('\n\n');
    const themes = findThemes(sample, sample, new Set(['keeper']));
    expect(themes).toContain('lighthouse');
    expect(themes.some((theme) => theme.includes('keeper'))).toBe(false);
  });
});

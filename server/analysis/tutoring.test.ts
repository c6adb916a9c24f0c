import { describe, expect, it } from 'vitest';
import { analyseText } from './analyse';

// The opening of Pride and Prejudice (Jane Austen, 1813; public domain), chapters 1-2 abridged.
const PRIDE = `It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife.

However little known the feelings or views of such a man may be on his first entering a neighbourhood, this truth is so well fixed in the minds of the surrounding families, that he is considered the rightful property of some one or other of their daughters.

"My dear Mr. Bennet," said his lady to him one day, "have you heard that Netherfield Park is let at last?"

Mr. Bennet replied that he had not.

"But it is," returned she; "for Mrs. Long has just been here, and she told me all about it."

Mr. Bennet made no answer.

"Do you not want to know who has taken it?" cried his wife impatiently.

"You want to tell me, and I have no objection to hearing it."

This was invitation enough.

"Why, my dear, you must know, Mrs. Long says that Netherfield is taken by a young man of large fortune from the north of England; that he came down on Monday in a chaise and four to see the place, and was so much delighted with it, that he agreed with Mr. Morris immediately; that he is to take possession before Michaelmas, and some of his servants are to be in the house by the end of next week."

"What is his name?"

"Bingley."

"Is he married or single?"

"Oh! Single, my dear, to be sure! A single man of large fortune; four or five thousand a year. What a fine thing for our girls!"

"How so? How can it affect them?"

"My dear Mr. Bennet," replied his wife, "how can you be so tiresome! You must know that I am thinking of his marrying one of them."

"Is that his design in settling here?"

"Design! Nonsense, how can you talk so! But it is very likely that he may fall in love with one of them, and therefore you must visit him as soon as he comes."

"I see no occasion for that. You and the girls may go, or you may send them by themselves, which perhaps will be still better, for as you are as handsome as any of them, Mr. Bingley may like you the best of the party."

"My dear, you flatter me. I certainly have had my share of beauty, but I do not pretend to be anything extraordinary now. When a woman has five grown-up daughters, she ought to give over thinking of her own beauty."

"But, my dear, you must indeed go and see Mr. Bingley when he comes into the neighbourhood."

"It is more than I engage for, I assure you. I will visit him, and I will send a few lines by you to assure him of my hearty consent to his marrying whichever he chooses of the girls; though I must throw in a good word for my little Lizzy."

"I desire you will do no such thing. Lizzy is not a bit better than the others; and I am sure she is not half so handsome as Jane, nor half so good-humoured as Lydia. But you are always giving her the preference."

"They have none of them much to recommend them," replied he; "they are all silly and ignorant like other girls; but Lizzy has something more of quickness than her sisters."

"Mr. Bennet, how can you abuse your own children in such a way? You take delight in vexing me. You have no compassion for my poor nerves."

"You mistake me, my dear. I have a high respect for your nerves. They are my old friends. I have heard you mention them with consideration these last twenty years at least."

Mr. Bennet was so odd a mixture of quick parts, sarcastic humour, reserve, and caprice, that the experience of three-and-twenty years had been insufficient to make his wife understand his character. Her mind was less difficult to develop. She was a woman of mean understanding, little information, and uncertain temper. When she was discontented, she fancied herself nervous. The business of her life was to get her daughters married; its solace was visiting and news.

Mr. Bennet was among the earliest of those who waited on Mr. Bingley. He had always intended to visit him, though to the last always assuring his wife that he should not go; and till the evening after the visit was paid she had no knowledge of it. Elizabeth Bennet was trimming a hat when her father spoke of it, and Elizabeth laughed at her mother's surprise. Mr. Bingley, they learned, would bring his friend Mr. Darcy to the ball at Meryton, and Mrs. Bennet could think of nothing but marriage for her daughters. Elizabeth thought Mr. Darcy proud; Mr. Darcy thought Elizabeth only tolerable, and Mr. Bingley danced twice with Jane.`;

// A short piece of expository writing (non-fiction), written for this test.
const NONFICTION = `Introduction

Solar panels convert sunlight into electricity using photovoltaic cells. According to the International Energy Agency, solar power accounted for about 4.5 percent of global electricity generation in 2022, up from less than 1 percent in 2015.

How photovoltaic cells work

Each cell contains layers of silicon. When light strikes the cell, electrons are released and flow as an electric current. The efficiency of commercial panels ranges from 18 to 23 percent, and research laboratories have demonstrated cells above 40 percent.

Costs and adoption

The cost of solar modules fell by roughly 90 percent between 2010 and 2020. As a result, solar energy is now among the cheapest sources of new electricity in many countries. However, storage remains a challenge, because output drops at night and in cloudy weather. Battery systems, pumped hydro and demand management are therefore studied as ways to balance the grid.

Conclusion

The evidence suggests that solar energy will continue to grow, provided that storage technology and grid investment keep pace with demand.`;

describe('analyseText', () => {
  it('finds the main characters of a novel opening, with the most mentioned as protagonist', () => {
    const a = analyseText(PRIDE, new Date('2024-05-01T10:00:00Z'));
    const names = a.characters.map((c) => c.name);
    expect(names.some((n) => /Bennet/.test(n))).toBe(true);
    expect(names.some((n) => /Bingley/.test(n))).toBe(true);
    expect(names.some((n) => /Elizabeth|Lizzy/.test(n))).toBe(true);
    expect(a.characters.length).toBeLessThanOrEqual(8);
    expect(a.characters[0]?.role).toBe('protagonist');
    expect(a.characters.filter((c) => c.role === 'protagonist')).toHaveLength(1);
    // "Mr. Bennet" and "Elizabeth Bennet" are different people: both kept.
    expect(new Set(names).size).toBe(names.length);
    expect(a.content_type).toBe('fiction');
    expect(a.analyzed_at).toBe('2024-05-01T10:00:00.000Z');
  });

  it('names characters as the text writes them: a full stop after "Mr." or "Dr.", none after a title word', () => {
    const story = [
      'Captain Harris rode to London with his sister Margaret and Dr. Watson.',
      'Margaret watched the road while Captain Harris talked.',
      '"Will it rain, Dr. Watson?" asked Margaret.',
      'Captain Harris laughed, and Dr. Watson said nothing.',
    ].join(' ');
    const names = analyseText(story.repeat(4)).characters.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['Margaret', 'Captain Harris', 'Dr. Watson']));
    // "his sister Margaret": a title in lower case is a word before the name, not part of it.
    expect(names.filter((name) => name.includes('sister') || name.includes('Captain.'))).toEqual([]);
  });

  it('gives lower-case themes without stop words or names', () => {
    const a = analyseText(PRIDE);
    expect(a.themes.length).toBeGreaterThanOrEqual(3);
    expect(a.themes.length).toBeLessThanOrEqual(8);
    for (const t of a.themes) {
      expect(t).toBe(t.toLowerCase());
      expect(['the', 'and', 'of', 'a', 'mr', 'bennet', 'bingley']).not.toContain(t);
    }
  });

  it('asks 3 to 5 grammatical questions about the characters, themes or setting it found', () => {
    const a = analyseText(PRIDE);
    expect(a.discussion_questions.length).toBeGreaterThanOrEqual(3);
    expect(a.discussion_questions.length).toBeLessThanOrEqual(5);
    const found = [...a.characters.map((c) => c.name), ...a.themes];
    expect(a.discussion_questions.some((q) => found.some((f) => q.includes(f)))).toBe(true);
    for (const q of a.discussion_questions) {
      expect(q).toMatch(/^[A-Z].*\?$/);
      expect(q).not.toMatch(/[{}]|N\/A|undefined|null/);
    }
  });

  it('classifies expository writing as non-fiction and reads its dates', () => {
    const a = analyseText(NONFICTION);
    expect(a.content_type).toBe('non-fiction');
    expect(a.themes.length).toBeGreaterThan(0);
    expect(a.themes.join(' ')).toMatch(/solar|energy|cell|electricity|storage|panel/);
    expect(a.setting.time).toMatch(/20\d\d/);
    expect(a.discussion_questions.length).toBeGreaterThanOrEqual(3);
  });

  it('returns a minimal analysis with three real questions for empty or odd input', () => {
    for (const input of ['', '   \n\n  ', '12345 678 !!!', '\u0000\u0001', 'x'.repeat(5000)]) {
      const a = analyseText(input);
      expect(a.characters).toEqual([]);
      expect(a.discussion_questions.length).toBeGreaterThanOrEqual(3);
      for (const q of a.discussion_questions) expect(q).toMatch(/\?$/);
      expect(a.setting).toEqual({ time: 'Not stated', place: 'Not stated' });
      expect(Number.isNaN(Date.parse(a.analyzed_at))).toBe(false);
    }
  });

  it('finds the setting of a story', () => {
    const story = `In the winter of 1851 Oliver walked the streets of London. "Where are you going?" asked Oliver's friend Sam.\n\n"To the river," said Oliver. London was cold that winter, and Oliver and Sam walked along the Thames through the evening fog. Sam said that London was no place for boys like them.`;
    const a = analyseText(story);
    expect(a.setting.place).toMatch(/London/);
    expect(a.setting.time).toMatch(/1851/);
    expect(a.setting.time).toMatch(/winter/);
    expect(a.characters.map((c) => c.name)).toContain('Oliver');
  });

  it('analyses a 1 MB text quickly', () => {
    let big = '';
    let i = 0;
    while (big.length < 1_000_000) {
      big += PRIDE.replace(/Netherfield/g, i % 2 ? 'Netherfield' : 'Longbourn') + '\n\n';
      i++;
    }
    const t0 = performance.now();
    const a = analyseText(big);
    const ms = performance.now() - t0;
    expect(a.characters.length).toBeGreaterThan(0);
    expect(ms).toBeLessThan(8000);
    console.log(`analyseText on ${(big.length / 1e6).toFixed(2)} MB: ${Math.round(ms)} ms`);
  });
});

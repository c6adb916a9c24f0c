import { createOfflineBrain } from './brain';
import { memoryBookSource } from './books';
import { CHAPTER_1, CHAPTER_2, HEARD, POSITION, SPOILERS, UNHEARD, lighthouse } from '../testing/keeper-book';
import { HeardIndex } from './heard-index';
import { createToolbox, TOOL_NAMES } from './tools';

function setup(position: number = POSITION) {
  const { book, text } = lighthouse();
  const books = memoryBookSource([{ userId: 'ann', book, text, position }]);
  const toolbox = createToolbox({ userId: 'ann', books, clientPosition: () => undefined });
  const brain = createOfflineBrain({
    mode: 'xray',
    jobId: book.id,
    callTool: (name, args) => toolbox.call(name, args),
  });
  return { book, books, toolbox, brain };
}

/** Nothing of the unheard sentences, and every quote is a (possibly shortened) heard sentence. */
function expectHeardOnly(answer: string) {
  for (const word of SPOILERS) expect(answer).not.toContain(word);
  for (const sentence of UNHEARD) expect(answer).not.toContain(sentence);
  const quotes = [...answer.matchAll(/"([^"]+)"/g)].map((m) => m[1]!.replace(/…$/, ''));
  for (const q of quotes) expect(HEARD.some((s) => s.startsWith(q))).toBe(true);
  return quotes;
}

describe('X-ray over the heard text', () => {
  it('who: a character heard early gets the first and latest mention, with where each was heard', async () => {
    const { brain } = setup();
    const answer = await brain.respond('Who is Tobias?');
    expect(answer).toContain('Tobias is a minor character.');
    expect(answer).toContain(`first appears in chapter 1, about 28 seconds in: "${CHAPTER_1[2]}"`);
    expect(answer).toContain(`in chapter 2, “The Stranger”, at the very start: "${CHAPTER_2[0]}"`);
    expect(answer).toContain('Mentioned 2 times so far.');
    expectHeardOnly(answer);
  });

  it('who: a character first named after the position is not revealed, by name, surname or role', async () => {
    const { brain, toolbox, book } = setup();
    for (const question of ['Who is Captain Elias Thorne?', 'Who is Thorne?', 'Tell me about Elias.']) {
      const answer = await brain.respond(question);
      expect(answer).toMatch(/hasn't appeared in what you've heard so far/);
      expect(answer).not.toContain('major character');
      expect(answer).not.toContain('"');
    }
    const search = await toolbox.call('search_book', { job_id: book.id, query: 'stranger map gold' });
    expect(search.answer).toBe(`I couldn't find "stranger map gold" in what you've heard of The Keeper so far.`);
    expect(JSON.stringify(search.data)).not.toMatch(/Thorne|Lundy/);
  });

  it('who are the characters / who is the main character: only the characters heard so far', async () => {
    const { brain } = setup();
    const cast = await brain.respond('Who are the characters?');
    expect(cast).toBe(
      `So far you've met Mara Quill (the protagonist) and Tobias. Mara Quill comes first, in chapter 1, at the very start: "${CHAPTER_1[0]}"`,
    );
    expectHeardOnly(cast);
    const lead = await brain.respond('Who is the main character?');
    expect(lead).toMatch(/^Mara Quill is the protagonist\. Mara Quill first appears in chapter 1, at the very start/);
    expectHeardOnly(lead);
  });

  it('what has happened so far: the chapters reached and the last passage heard', async () => {
    const { brain } = setup();
    const recap = await brain.respond('What has happened so far?');
    expect(recap).toBe(
      `So far you've reached 2 of 2 chapters: Chapter 1, The Stranger. You're in The Stranger. You're at 1:05 of 1:52 in The Keeper, 58% of the way through. The last thing you heard: "${CHAPTER_2[1]}"`,
    );
    expectHeardOnly(recap);
  });

  it('where does the story take place: the places heard, in order, quoted from where they were heard', async () => {
    const { brain } = setup();
    const answer = await brain.respond('Where does the story take place?');
    expect(answer).toMatch(/^From what you've heard, the story moves from Gull Island to Cornwall to Penzance\./);
    expect(answer).toContain(`It begins around Gull Island, in chapter 1, at the very start: "${CHAPTER_1[0]}"`);
    expect(answer).toContain('As for when: the winter of 1893.');
    expectHeardOnly(answer);
    // Asked as "when", the time and its passage.
    const when = await brain.respond('When is the story set?');
    expect(when).toBe(
      `As for when, it is the winter of 1893: you heard in chapter 1, at the very start, "${CHAPTER_1[0]}"`,
    );
  });

  it('the setting before any place is named says so and quotes the opening, never the analysis', async () => {
    const { book, text } = lighthouse();
    const opening = 'The wind had not stopped for three days.';
    const plain = {
      ...text,
      text: `${opening} ${text.text}`,
      timing: [
        { start: 0, end: 5, char_start: 0, char_end: opening.length },
        ...text.timing.map((t) => ({
          ...t,
          start: t.start + 5,
          end: t.end + 5,
          char_start: t.char_start + opening.length + 1,
          char_end: t.char_end + opening.length + 1,
        })),
      ],
    };
    const toolbox = createToolbox({
      userId: 'ann',
      books: memoryBookSource([{ userId: 'ann', book, text: plain, position: 2 }]),
      clientPosition: () => undefined,
    });
    const result = await toolbox.call('xray_lookup', { job_id: book.id, kind: 'setting' });
    expect(result.answer).toBe(
      `So far The Keeper hasn't named where it takes place. It opens at the very start: "${opening}"`.replace(
        'opens at',
        'opens in chapter 1, at',
      ),
    );
    expect(result.answer).not.toContain('Gull Island');
  });

  it('seeking back shrinks what can be found; moving on makes later passages findable', async () => {
    const { book, books, toolbox } = setup();
    expect((await toolbox.call('search_book', { job_id: book.id, query: 'fisherman' })).answer).toContain(CHAPTER_2[0]);
    books.setPosition('ann', book.id, 20);
    expect((await toolbox.call('search_book', { job_id: book.id, query: 'fisherman' })).answer).toContain(
      "couldn't find",
    );
    expect((await toolbox.call('xray_lookup', { job_id: book.id, query: 'Tobias' })).answer).toContain(
      "hasn't appeared",
    );
    books.setPosition('ann', book.id, 100);
    const later = await toolbox.call('xray_lookup', { job_id: book.id, query: 'Elias Thorne' });
    expect(later.answer).toContain('Elias Thorne is a major character.');
    expect(later.answer).toContain(CHAPTER_2[2]);
  });

  it('search_book ranks with stemming and fuzzy matching, quoting where each passage was heard', async () => {
    const { book, toolbox } = setup();
    // "climbing" finds "climbed" (stemming); "lighthose" finds "lighthouse" (a typo).
    const climb = await toolbox.call('search_book', { job_id: book.id, query: 'climbing steps' });
    expect(climb.answer).toBe(`From what you've heard, in chapter 1, about 14 seconds in: "${CHAPTER_1[1]}"`);
    const typo = await toolbox.call('search_book', { job_id: book.id, query: 'lighthose' });
    expect(typo.answer).toContain(CHAPTER_1[0]);
    expect(TOOL_NAMES).toContain('search_book');
  });
});

describe('X-ray on dialogue', () => {
  it('quotes a line of dialogue with its own quotes made single, and a bare first mention with a fuller one', async () => {
    const lines = [
      '"Have you heard that Netherfield Park is let at last?" asked his wife.',
      '"Bingley."',
      'Bingley was a young man of large fortune from the north of England.',
      'Everyone at the ball liked Bingley at once.',
    ];
    const text = lines.join(' ');
    let at = 0;
    const timing = lines.map((line, i) => {
      const entry = { start: i * 3, end: i * 3 + 3, char_start: at, char_end: at + line.length };
      at += line.length + 1;
      return entry;
    });
    const { book } = lighthouse();
    const toolbox = createToolbox({
      userId: 'ann',
      books: memoryBookSource([
        { userId: 'ann', book: { ...book, chapters: [], analysis: null }, text: { text, timing }, position: 9 },
      ]),
      clientPosition: () => undefined,
    });
    const place = await toolbox.call('xray_lookup', { job_id: book.id, query: 'Netherfield Park', kind: 'what' });
    expect(place.answer).toContain(
      `Netherfield Park first appears at the very start: "'Have you heard that Netherfield Park is let at last?' asked his wife."`,
    );
    const who = await toolbox.call('xray_lookup', { job_id: book.id, query: 'Bingley' });
    expect(who.answer).toBe(
      `Bingley first appears at the very start: "'Bingley.'" You also heard, about 6 seconds in: "Bingley was a young man of large fortune from the north of England." Mentioned 3 times so far. Most recently, about 9 seconds in: "Everyone at the ball liked Bingley at once."`,
    );
  });
});

describe('HeardIndex', () => {
  it('counts heard sentences by the timing entry playing and splits long entries into sentences', async () => {
    const text = 'One fine day. Two birds sang. Then rain came.';
    const index = await HeardIndex.build(
      {
        text,
        timing: [
          { start: 0, end: 6, char_start: 0, char_end: 29 },
          { start: 6, end: 9, char_start: 30, char_end: 45 },
        ],
      },
      [],
    );
    expect(index.heardCount(0)).toBe(2);
    expect(index.heardCount(5.9)).toBe(2);
    expect(index.heardCount(6)).toBe(3);
    expect(index.heard(2).map((s) => [s.text, Math.round(s.start * 10) / 10])).toEqual([
      ['One fine day.', 0],
      ['Two birds sang.', 2.9],
    ]);
    expect(await index.find('rain', 2)).toEqual([]);
    expect((await index.find('rain', 3)).map((p) => p.sentence.text)).toEqual(['Then rain came.']);
    // Searches at two positions at once each see only their own sentences.
    const [early, late] = await Promise.all([index.find('rain birds', 2), index.find('rain birds', 3)]);
    expect(early.map((p) => p.sentence.text)).toEqual(['Two birds sang.']);
    expect(late.map((p) => p.sentence.text).sort()).toEqual(['Then rain came.', 'Two birds sang.']);
    expect(await index.find('rain', 1)).toEqual([]);
  });
});

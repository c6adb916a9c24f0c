import { createOfflineBrain, parseXrayQuestion } from './brain';
import { memoryBookSource } from './books';
import {
  HEARD_POSITION,
  HEARD_SENTENCES,
  ROCHESTER_SENTENCES,
  rochesterBook,
  rochesterText,
} from '../testing/assistant-fixtures';
import { createToolbox, spoilerBound, TOOL_NAMES } from './tools';

const USER = 'user-ann';
const OTHER = 'user-bob';

function setup(position: number | null = HEARD_POSITION, clientPosition?: number) {
  const book = rochesterBook();
  const other = { ...rochesterBook(), title: 'Moby Dick', description: 'A whale hunt.' };
  const books = memoryBookSource([
    { userId: USER, book, text: rochesterText(), ...(position !== null && { position }) },
    { userId: OTHER, book: other, text: rochesterText(), position: 100 },
  ]);
  const toolbox = createToolbox({ userId: USER, books, clientPosition: () => clientPosition });
  return { book, other, books, toolbox };
}

const UNHEARD = ROCHESTER_SENTENCES.slice(HEARD_SENTENCES);
const HEARD_TEXT = ROCHESTER_SENTENCES.slice(0, HEARD_SENTENCES).join(' ');

/** Every quoted passage comes from the heard text, and nothing of the unheard text appears. */
function expectSpoilerFree(answer: string, checkQuotes = true) {
  for (const sentence of UNHEARD) expect(answer).not.toContain(sentence);
  for (const word of ['brooding', 'horse', 'laughter', 'Rochester', 'Bertha']) expect(answer).not.toContain(word);
  if (!checkQuotes) return;
  for (const [, quote] of answer.matchAll(/"([^"]+)"/g)) {
    expect(HEARD_TEXT).toContain(quote!.replace(/…$/, ''));
  }
}

describe('the spoiler bound', () => {
  it('ends at the sentence playing at the position', () => {
    const { text, timing } = rochesterText();
    expect(text.slice(0, spoilerBound(timing, HEARD_POSITION))).toBe(HEARD_TEXT);
    expect(spoilerBound(timing, 0)).toBe(ROCHESTER_SENTENCES[0].length);
    expect(spoilerBound([], 50)).toBe(0);
  });

  it('xray_lookup: a character first named after the position is not revealed yet', async () => {
    const { toolbox, book } = setup();
    const result = await toolbox.call('xray_lookup', { job_id: book.id, query: 'Mr. Rochester' });
    expect(result.answer).toBe("Mr. Rochester hasn't appeared in what you've heard so far — keep listening!");
    expect(result.data.revealed).toBe(false);
    // The analysis knows his role, but it must not leak.
    expect(JSON.stringify(result)).not.toContain('major character');
  });

  it('xray_lookup: a character named before the position is described from heard text only', async () => {
    const { toolbox, book } = setup();
    const result = await toolbox.call('xray_lookup', { job_id: book.id, query: 'helen burns' });
    expect(result.answer).toContain('Helen Burns is a minor character.');
    expect(result.answer).toContain(`"${ROCHESTER_SENTENCES[2]}"`);
    expect(result.answer).toContain('Mentioned 2 times so far.');
    expectSpoilerFree(result.answer);
    expectSpoilerFree(JSON.stringify(result.data), false);
  });

  it('moves with the position the client sends (an open player) over the saved one', async () => {
    const { toolbox, book } = setup(HEARD_POSITION, 16);
    const result = await toolbox.call('xray_lookup', { job_id: book.id, query: 'Rochester' });
    // Heard once so far: named, quoted and counted, not yet called "major".
    expect(result.answer).toContain('Mentioned once so far.');
    expect(result.answer).not.toContain('major');
    expect(result.answer).toContain(ROCHESTER_SENTENCES[5]);
    expect(result.answer).not.toContain('horse');
  });

  it('search_book finds heard passages and nothing past the position', async () => {
    const { toolbox, book } = setup();
    const found = await toolbox.call('search_book', { job_id: book.id, query: 'Lowood school' });
    expect(found.answer).toContain(ROCHESTER_SENTENCES[2]);
    expectSpoilerFree(found.answer);
    const hidden = await toolbox.call('search_book', { job_id: book.id, query: 'horse' });
    expect(hidden.answer).toBe('I couldn\'t find "horse" in what you\'ve heard of Jane Eyre so far.');
  });

  it('with no saved position nothing is heard', async () => {
    const { toolbox, book } = setup(null);
    const result = await toolbox.call('search_book', { job_id: book.id, query: 'Jane' });
    expect(result.answer).toContain("You haven't heard any of Jane Eyre yet");
    const position = await toolbox.call('current_position', { job_id: book.id });
    expect(position.answer).toBe("You haven't started Jane Eyre yet.");
  });

  it('tutor_turn opens with a discussion question that names nobody unheard', async () => {
    const { toolbox, book } = setup();
    const opening = await toolbox.call('tutor_turn', { job_id: book.id });
    expect(opening.answer).toBe("How does Helen Burns shape Jane's view of suffering?");
    const reply = await toolbox.call('tutor_turn', {
      job_id: book.id,
      user_message: 'Helen teaches her patience and faith',
    });
    // Answers from the book (the person spoken of, the heard passage that bears on the answer), never
    // with the reader's own words said back as what the book is about.
    expect(reply.answer).not.toContain('Helen teaches');
    expect(reply.answer).not.toMatch(/'patience'|'faith'|comes down to/u);
    expect(reply.data.kind).toBe('why');
    // Faith is a theme of the book's analysis that the heard text touches: the book's, not the reader's.
    expect(reply.answer).toMatch(
      /^That says something about Helen and about Gateshead, and the book keeps coming back to faith\./u,
    );
    expect(reply.answer).toContain(`In chapter 2, “Lowood”, at the very start, you heard: "${ROCHESTER_SENTENCES[3]}"`);
    expect(reply.answer.trim().endsWith('?')).toBe(true);
    expectSpoilerFree(reply.answer);
  });

  it('book_outline lists only the chapters reached; current_position quotes the last heard sentence', async () => {
    const { toolbox, book } = setup();
    const outline = await toolbox.call('book_outline', { job_id: book.id });
    expect(outline.answer).toBe(
      "So far you've reached 3 of 3 chapters: Gateshead, Lowood, Thornfield. You're in Thornfield.",
    );
    const early = setup(5);
    const earlyOutline = await early.toolbox.call('book_outline', { job_id: early.book.id });
    expect(earlyOutline.data.chapters).toEqual([{ title: 'Gateshead', order: 1, start_seconds: 0 }]);
    const position = await toolbox.call('current_position', { job_id: book.id });
    expect(position.answer).toBe(
      `You're at 0:13 of 0:24 in Jane Eyre, 54% of the way through. The last thing you heard: "${ROCHESTER_SENTENCES[4]}"`,
    );
  });

  it("search_library searches only the user's books; other users' books are not found", async () => {
    const { toolbox, other } = setup();
    expect((await toolbox.call('search_library', { query: 'governess independence' })).answer).toBe(
      'I found 1 book for "governess independence": Jane Eyre.',
    );
    expect((await toolbox.call('search_library', { query: 'whale' })).answer).toContain("couldn't find");
    await expect(toolbox.call('xray_lookup', { job_id: other.id, query: 'Jane' })).rejects.toThrow('Book not found');
    await expect(toolbox.call('nope', {})).rejects.toThrow('Unknown tool nope');
    expect(TOOL_NAMES).toEqual([
      'search_library',
      'search_book',
      'xray_lookup',
      'tutor_turn',
      'book_outline',
      'current_position',
      'recent_events',
    ]);
  });
});

describe('the offline brain', () => {
  it('parses X-ray questions', () => {
    expect(parseXrayQuestion('Who is Mr. Rochester?')).toBe('Mr. Rochester');
    expect(parseXrayQuestion("who's Helen Burns")).toBe('Helen Burns');
    expect(parseXrayQuestion('Where is Thornfield Hall?')).toBe('Thornfield Hall');
    expect(parseXrayQuestion('Tell me about Mrs. Reed.')).toBe('Mrs. Reed');
    expect(parseXrayQuestion('Why did she leave?')).toBeNull();
  });

  it('routes questions to tools by mode', async () => {
    const { toolbox, book } = setup();
    const calls: string[] = [];
    const callTool = async (name: (typeof TOOL_NAMES)[number], args: Record<string, unknown>) => {
      calls.push(name);
      return toolbox.call(name, args);
    };
    const xray = createOfflineBrain({ mode: 'xray', jobId: book.id, callTool });
    expect(await xray.opening()).toBeNull();
    expect(await xray.respond('Who is Mr. Rochester?')).toContain("hasn't appeared");
    expect(await xray.respond('What happened at Lowood?')).toContain('Lowood school');
    const tutor = createOfflineBrain({ mode: 'tutor', jobId: book.id, callTool });
    expect(await tutor.opening()).toContain('Helen Burns');
    const general = createOfflineBrain({ mode: null, jobId: null, callTool });
    expect(await general.respond('Do I have anything about a governess?')).toContain('Jane Eyre');
    expect(calls).toEqual(['xray_lookup', 'search_book', 'tutor_turn', 'search_library']);
  });
});

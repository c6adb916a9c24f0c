import { describe, expect, it } from 'vitest';
import type { QuotedSpan } from '../books/transcript';
import { finishedBook, timedText } from '../testing/book-fixture';
import { createOfflineBrain } from './brain';
import { memoryBookSource } from './books';
import { createToolbox } from './tools';

// X-ray's "who said that?" over a small book with dialogue: the listener is inside the second
// chapter's second sentence; the stranger's line and what follows are not heard yet.
const CHAPTER_1 = [
  'Mara Quill climbed the steps to the lamp room.',
  '"The oil is low again," Mara said.',
  'Her brother Tobias set down the basket of bread.',
  '"I will row to Penzance tomorrow," Tobias answered.',
];
const CHAPTER_2 = [
  '"Stay until the storm passes," said Mara.',
  'Tobias looked out at the dark water for a long time.',
  '"The gold is under the floor," whispered the stranger.',
  '"Then we are rich," Tobias said.',
];
const SECONDS = 10;
/** In the second sentence of chapter 2: its first two sentences are heard. */
const POSITION = 55;

function dialogueBook() {
  const sentences = [...CHAPTER_1, ...CHAPTER_2];
  const text = timedText(sentences, SECONDS, (i) => (i === CHAPTER_1.length ? '\n\n' : ' '));
  const book = finishedBook({
    title: 'The Keeper',
    durationSeconds: sentences.length * SECONDS,
    chapters: [
      { title: 'Chapter 1', order: 1, duration: CHAPTER_1.length * SECONDS },
      { title: 'The Storm', order: 2, duration: CHAPTER_2.length * SECONDS },
    ],
  });
  return { book, text };
}

/** The quoted spans of `text` in each chapter, with the speakers given (a cast as the listener corrected it). */
function castOf(text: string, speakers: Record<string, string>): QuotedSpan[][] {
  const spans = Object.entries(speakers).map(([line, speaker]) => {
    const start = text.indexOf(line);
    return { char_start: start, char_end: start + line.length, speaker, confidence: 1 };
  });
  const chapter2 = text.indexOf(CHAPTER_2[0]!);
  return [spans.filter((s) => s.char_start < chapter2), spans.filter((s) => s.char_start >= chapter2)];
}

function setup(cast?: Parameters<typeof memoryBookSource>[0][number]['cast']) {
  const { book, text } = dialogueBook();
  const books = memoryBookSource([{ userId: 'ann', book, text, position: POSITION, ...(cast && { cast }) }]);
  const toolbox = createToolbox({ userId: 'ann', books, clientPosition: () => undefined });
  const brain = createOfflineBrain({
    mode: 'xray',
    jobId: book.id,
    callTool: (name, args) => toolbox.call(name, args),
  });
  return { book, text, toolbox, brain };
}

describe('X-ray: who said a line', () => {
  it('names the speaker of a heard line asked by its words, with where it was heard', async () => {
    const { brain } = setup();
    expect(await brain.respond('Who said the oil is low again?')).toBe(
      'Mara Quill says that, in chapter 1, about 10 seconds in: "The oil is low again"',
    );
    expect(await brain.respond('Who said "I will row to Penzance tomorrow"?')).toBe(
      'Tobias says that, in chapter 1, about 30 seconds in: "I will row to Penzance tomorrow"',
    );
  });

  it('answers "who said that?" with the last line heard', async () => {
    const { brain } = setup();
    expect(await brain.respond('Who said that?')).toBe(
      'Mara Quill says that, in chapter 2, “The Storm”, at the very start: "Stay until the storm passes"',
    );
  });

  it('never reaches past the position: a line not heard yet is not found, its speaker not named', async () => {
    const { brain, toolbox, book } = setup();
    for (const question of ['Who said the gold is under the floor?', 'Who said then we are rich?']) {
      const answer = await brain.respond(question);
      expect(answer).toMatch(/^I couldn't find ".+" in what you've heard of The Keeper so far\.$/);
      expect(answer).not.toMatch(/stranger|Tobias/);
    }
    const direct = await toolbox.call('xray_lookup', { job_id: book.id, kind: 'said', query: 'gold floor' });
    expect(JSON.stringify(direct.data)).not.toMatch(/gold|stranger/);
  });

  it("says when the words are the narrator's, not a character's", async () => {
    const { brain } = setup();
    expect(await brain.respond('Who said Tobias set down the basket of bread?')).toBe(
      'That isn\'t a character\'s line: the narrator says it, in chapter 1, about 20 seconds in: "Her brother Tobias set down the basket of bread."',
    );
  });

  it("answers a full-cast book from its cast, the listener's corrections included", async () => {
    const { text } = dialogueBook();
    const cast = {
      characters: [
        { id: 'mara-quill', name: 'Mara Quill' },
        { id: 'tobias', name: 'Tobias' },
      ],
      // The listener gave the first line to Tobias.
      chapters: castOf(text.text, {
        '"The oil is low again,"': 'tobias',
        '"Stay until the storm passes,"': 'mara-quill',
        '"The gold is under the floor,"': 'narrator',
      }),
    };
    const { brain, toolbox, book } = setup(cast);
    expect(await brain.respond('Who said the oil is low again?')).toBe(
      'Tobias says that, in chapter 1, about 10 seconds in: "The oil is low again"',
    );
    expect(await brain.respond('Who said that?')).toMatch(/^Mara Quill says that, in chapter 2/);
    const result = await toolbox.call('xray_lookup', { job_id: book.id, kind: 'said', query: 'oil low' });
    expect(result.data).toMatchObject({ revealed: true, speaker: 'Tobias', evidence: { chapter: 1, seconds_in: 10 } });
  });

  it('has nothing to say before the listener has heard anything', async () => {
    const { book, text } = dialogueBook();
    const books = memoryBookSource([{ userId: 'ann', book, text }]);
    const toolbox = createToolbox({ userId: 'ann', books, clientPosition: () => undefined });
    const result = await toolbox.call('xray_lookup', { job_id: book.id, kind: 'said', query: 'the oil is low' });
    expect(result.answer).toMatch(/^You haven't heard any of The Keeper yet/);
    expect(result.data).toEqual({ revealed: false, kind: 'said' });
  });
});

/**
 * Hidden answers: twenty questions a listener asks about "The Tin Box", each at three listening
 * positions (chapter 1 with the box still shut, the end of chapter 2 with the box open, chapter 3
 * before the ending). Each answer must contain the facts heard so far and must not contain what lies
 * past the position, a "couldn't find" for a time question, a chapter heading as evidence, or a
 * "major" character on a single mention.
 */
import { createOfflineBrain } from './brain';
import { memoryBookSource } from './books';
import { createToolbox } from './tools';
import { EARLY, LATE, MIDDLE, TIN_BOX_LINES, tinBoxBook } from '../testing/tin-box-book';
import { recentEvents } from './recent';
import { HeardIndex } from './heard-index';

type Position = 'early' | 'middle' | 'late';
const SECONDS: Record<Position, number> = { early: EARLY, middle: MIDDLE, late: LATE };

interface Expect {
  must?: (string | RegExp)[];
  mustNot?: (string | RegExp)[];
}

/** Facts past each position: none of them may appear in any answer there. */
const UNHEARD: Record<Position, string[]> = {
  early: [
    'tall man',
    'evening coach',
    'tavern',
    'brass key',
    'letter',
    'mother',
    'mill race',
    'drowned',
    'their father',
  ],
  middle: ['opened the door', 'confessed', 'their father', 'drowned', 'never left'],
  late: ['drowned', 'mill race', 'never left', 'kept the letter'],
};
/** Never an answer to a question about the story: headings and a dodge. */
const NEVER = [/Chapter (?:One|Two|Three)/u, /couldn't find/u];

const AHEAD: Expect = { must: ['still ahead'], mustNot: ['drowned', 'never left'] };

const QUESTIONS: [string, Record<Position, Expect>][] = [
  [
    'Who is Elias Crane?',
    {
      early: { must: ["hasn't appeared"] },
      middle: { must: ['A tall man called Elias Crane', 'Mentioned 3 times', 'major character'] },
      late: { must: ['Mentioned 5 times', 'their father'] },
    },
  ],
  [
    'Who is Mr. Crane?',
    {
      early: { must: ["hasn't appeared"] },
      middle: { must: ['Elias Crane', 'evening coach'] },
      late: { must: ['Elias Crane', 'Mentioned 5 times'] },
    },
  ],
  [
    'Where is Crane?',
    {
      early: { must: ["hasn't appeared"] },
      middle: { must: ['watched the cottage from the harbour wall'] },
      late: { must: ['their father'] },
    },
  ],
  [
    'What is in the tin box?',
    {
      early: { must: ['buried under the cottage floor'], mustNot: ['key'] },
      middle: { must: ['brass key', 'in chapter 2'] },
      late: { must: ['brass key'] },
    },
  ],
  [
    'What is the brass key?',
    {
      early: { must: ["hasn't appeared"] },
      middle: { must: ['Inside the tin box lay a brass key'] },
      late: { must: ['opened the door of the old mill'] },
    },
  ],
  [
    'Who is Nell?',
    {
      early: { must: ['Nell Harper is the protagonist', 'in chapter 1'] },
      middle: { must: ['Nell Harper is the protagonist'] },
      late: { must: ['Nell Harper is the protagonist'] },
    },
  ],
  [
    'Who is Tobias?',
    {
      early: { must: ['her brother Tobias', 'major character'] },
      middle: { must: ['her brother Tobias'] },
      late: { must: ['confessed'] },
    },
  ],
  [
    'Who is the main character?',
    { early: { must: ['Nell Harper'] }, middle: { must: ['Nell Harper'] }, late: { must: ['Nell Harper'] } },
  ],
  [
    'Who are the characters?',
    {
      early: { must: ['Nell Harper', 'Tobias'] },
      middle: { must: ['Nell Harper', 'Tobias', 'Elias Crane'] },
      late: { must: ['Elias Crane'] },
    },
  ],
  [
    'Where does the story take place?',
    {
      early: { must: ['Saltmarsh Cove'] },
      middle: { must: ['Saltmarsh'] },
      late: { must: ['Saltmarsh'] },
    },
  ],
  [
    'What just happened?',
    {
      early: { must: ['tin box', /Nell/u] },
      middle: { must: [/Crane|Elias/u, 'brass key'] },
      late: { must: [/mill/u, /father/u] },
    },
  ],
  [
    'What did I miss?',
    {
      early: { must: [/box/u] },
      middle: { must: [/key|letter/u] },
      late: { must: [/Crane/u] },
    },
  ],
  [
    'Remind me what happened in the last chapter',
    {
      early: { must: [/Nell/u, /chapter 1/u] },
      middle: { must: ['In chapter 1', /Nell/u], mustNot: ['Crane', 'key'] },
      late: { must: ['In chapter 2', /Crane|Elias/u] },
    },
  ],
  [
    'What happened in this chapter?',
    {
      early: { must: ['In chapter 1'] },
      middle: { must: ['In chapter 2', /Crane|Elias/u] },
      late: { must: ['In chapter 3'] },
    },
  ],
  ['How does it end?', { early: AHEAD, middle: AHEAD, late: AHEAD }],
  ['What happens at the end of the book?', { early: AHEAD, middle: AHEAD, late: AHEAD }],
  ['Does Tobias die?', { early: AHEAD, middle: AHEAD, late: AHEAD }],
  ['Will Nell ever leave Saltmarsh?', { early: AHEAD, middle: AHEAD, late: AHEAD }],
  ['What happens next?', { early: AHEAD, middle: AHEAD, late: AHEAD }],
  [
    'Previously',
    {
      early: { must: ['Previously in The Tin Box', /Nell/u] },
      middle: { must: ['Previously in The Tin Box'] },
      late: { must: ['Previously in The Tin Box'] },
    },
  ],
];

function assistantAt(position: Position) {
  const { book, text } = tinBoxBook();
  const books = memoryBookSource([{ userId: 'nell', book, text, position: SECONDS[position] }]);
  const toolbox = createToolbox({ userId: 'nell', books, clientPosition: () => undefined });
  const results: Record<string, unknown>[] = [];
  const brain = createOfflineBrain({
    mode: 'xray',
    jobId: book.id,
    callTool: async (name, args) => {
      const result = await toolbox.call(name, args);
      results.push(result.data);
      return result;
    },
  });
  return { brain, results };
}

function check(answer: string, expected: Expect, position: Position): void {
  for (const fact of expected.must ?? []) expect(answer).toMatch(fact);
  for (const fact of [...(expected.mustNot ?? []), ...UNHEARD[position], ...NEVER]) expect(answer).not.toMatch(fact);
  expect(answer).not.toMatch(/\bmajor\b.*\bMentioned once\b/su);
}

describe('twenty questions at three listening positions (hidden answers)', () => {
  expect(QUESTIONS).toHaveLength(20);
  for (const position of ['early', 'middle', 'late'] as const) {
    it(`answers with what is heard at ${SECONDS[position]} s and nothing past it (${position})`, async () => {
      const { brain, results } = assistantAt(position);
      for (const [question, byPosition] of QUESTIONS) {
        const answer = await brain.respond(question);
        try {
          check(answer, byPosition[position], position);
        } catch (error) {
          throw new Error(`"${question}" at ${position}: ${answer}\n${(error as Error).message}`, { cause: error });
        }
      }
      // Every X-ray answer that cites a passage cites a sentence, with where to play it from.
      const evidence = results.flatMap((data) => (data.evidence ? [data.evidence as Record<string, unknown>] : []));
      expect(evidence.length).toBeGreaterThan(0);
      for (const e of evidence) {
        expect(TIN_BOX_LINES.slice(0, Math.floor(SECONDS[position] / 10) + 1)).toContain(e.text);
        expect(e.text).not.toMatch(/^Chapter /u);
        expect(e.position_seconds).toBeLessThanOrEqual(SECONDS[position]);
        expect(e.where).toMatch(/^in chapter \d/u);
      }
    });
  }
});

describe('the recap after a break', () => {
  it('is 20 to 40 seconds of speech about what was heard before the stop, naming who, and nothing after', async () => {
    const { book, text } = tinBoxBook();
    const index = await HeardIndex.build(text, book.chapters);
    for (const position of [MIDDLE, LATE]) {
      const heard = index.heard(index.heardCount(position));
      const recap = recentEvents(
        { title: book.title, analysis: book.analysis, heard, positionSeconds: position },
        'recap',
      );
      const words = recap.answer.split(/\s+/).length;
      // About 2.5 spoken words a second.
      expect(words).toBeGreaterThanOrEqual(50);
      expect(words).toBeLessThanOrEqual(100);
      expect(recap.answer).toMatch(/^Previously in The Tin Box:/u);
      expect(recap.data.who).toContain('Nell Harper');
      for (const spoiler of position === MIDDLE ? UNHEARD.middle : UNHEARD.late)
        expect(recap.answer).not.toContain(spoiler);
      expect(recap.answer).not.toMatch(/Chapter (?:One|Two|Three)/u);
    }
  });
});

import { createOfflineBrain } from './brain';
import { memoryBookSource } from './books';
import { serveVoiceAssistant, type ServedAssistant } from '../testing/voice-socket';
import { createVoiceAssistant, type VoiceAssistant } from './service';
import { createToolbox } from './tools';
import { CHAPTER_1, CHAPTER_2, HEARD, POSITION, SPOILERS, lighthouse } from '../testing/keeper-book';
import { TestVoiceClient } from '../testing/voice-client';
import { indexTerms } from './heard-index';

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** Whether the tutor's own words (book quotes removed) repeat three or more words of the reader in a row. */
function echoes(reply: string, said: string): boolean {
  const own = ` ${words(reply.replace(/"[^"]*"/g, ' ')).join(' ')} `;
  const w = words(said);
  const n = Math.min(3, w.length);
  for (let i = 0; i + n <= w.length; i += 1) if (own.includes(` ${w.slice(i, i + n).join(' ')} `)) return true;
  return false;
}

function expectGrounded(reply: string) {
  for (const word of SPOILERS) expect(reply).not.toContain(word);
  for (const [, q] of reply.matchAll(/"([^"]+)"/g))
    expect(HEARD.some((s) => s.startsWith(q!.replace(/…$/, '')))).toBe(true);
}

function tutor() {
  const { book, text } = lighthouse();
  const books = memoryBookSource([{ userId: 'ann', book, text, position: POSITION }]);
  const toolbox = createToolbox({ userId: 'ann', books, clientPosition: () => undefined });
  const kinds: unknown[] = [];
  const brain = createOfflineBrain({
    mode: 'tutor',
    jobId: book.id,
    callTool: async (name, args) => {
      const result = await toolbox.call(name, args);
      kinds.push(result.data.kind);
      return result;
    },
  });
  return { book, brain, kinds };
}

/** The tutor's own words: the reply with the book's quotations taken out. */
function ownWords(reply: string): string {
  return reply.replace(/"[^"]*"/g, ' ');
}

/**
 * The reader's own content words the tutor's own words (book quotes removed) say back: quoted as
 * theirs ('scared'), or offered as what the book is about. Names of the book's people do not count.
 */
function saysBack(reply: string, said: string): string[] {
  const own = ownWords(reply).toLowerCase();
  const people = new Set(['mara', 'quill', 'tobias', 'gull', 'island']);
  return words(said)
    .filter((w) => w.length >= 4 && !people.has(w))
    .filter(
      (w) => own.includes(`'${w}'`) || own.includes(`comes down to ${w}`) || new RegExp(`\\b${w}\\b`, 'u').test(own),
    );
}

/** Whether a heard sentence bears on what the reader said: it shares a word with it or names the person they spoke of. */
function bearsOn(sentence: string, said: string, people: readonly string[]): boolean {
  const mine = new Set(indexTerms(said));
  return indexTerms(sentence).some((t) => mine.has(t)) || people.some((p) => sentence.includes(p));
}

describe('the Socratic tutor (offline)', () => {
  it('follows the reader over five turns: why, evidence, another reading, their own view, then a new question', async () => {
    const { brain, kinds } = tutor();
    const opening = await brain.opening();
    // The analysis's first question names Elias Thorne, who is not heard yet: it is skipped.
    expect(opening).toBe('What keeps Mara Quill on Gull Island?');

    // Each answer, with the person of the book the tutor must name in its reply.
    const dialogue: { said: string; names: RegExp; people: string[] }[] = [
      { said: 'Tobias seems scared.', names: /Tobias/u, people: ['Tobias'] },
      {
        said: 'She stays because she promised to keep the lamp burning every night.',
        names: /Mara/u,
        people: ['Mara'],
      },
      { said: 'Duty, I guess.', names: /Mara/u, people: ['Mara'] },
      { said: 'Her brother forces her to stay out there.', names: /Mara/u, people: ['Mara'] },
      {
        said: 'I think she is proud of the work and would feel lost on the mainland.',
        names: /a view of Mara worth keeping/u,
        people: ['Mara'],
      },
    ];
    const replies: string[] = [];
    const questions: string[] = [opening!];
    for (const { said, names, people } of dialogue) {
      const reply = await brain.respond(said);
      replies.push(reply);
      // It answers from the book (the person, the place, the heard text), never with the reader's own words.
      expect(reply).toMatch(names);
      expect(echoes(reply, said)).toBe(false);
      expect(saysBack(reply, said)).toEqual([]);
      // One open question, at the end.
      expect(ownWords(reply).match(/\?/g)).toHaveLength(1);
      expect(reply.trim().endsWith('?')).toBe(true);
      questions.push(
        ownWords(reply)
          .split(/(?<=[.!—])\s+/u)
          .at(-1)!
          .trim(),
      );
      // Only heard passages, and only ones that bear on what was said (no unrelated quotation).
      expectGrounded(reply);
      for (const [, quote] of reply.matchAll(/"([^"]+)"/g)) expect(bearsOn(quote!, said, people)).toBe(true);
    }
    // The dialogue moves on: why, then the evidence, then another reading, then the reader's own view.
    expect(kinds).toEqual(['opening', 'why', 'evidence', 'alternative', 'own_view', 'next_question']);
    expect(replies[0]).toMatch(/^That says something about Tobias and about Gull Island\. /u);
    expect(replies[0]).toMatch(/What makes you read Tobias that way/u);
    expect(replies[0]).toContain(`"${CHAPTER_1[2]}"`);
    expect(replies[1]).toContain(`you heard: "${CHAPTER_1[1]}" Does that line bear out`);
    expect(replies[2]).toMatch(/Another listener might/u);
    expect(replies[3]).toMatch(/what do you make of Mara yourself/u);
    // ...and on to the next discussion question.
    expect(replies[4]).toMatch(/How does the sea shape the lives of Mara and Tobias\?$/);
    // Every passage is quoted once at most, and no question is asked twice.
    const quoted = replies.flatMap((r) => [...r.matchAll(/"([^"]+)"/g)].map((m) => m[1]));
    expect(new Set(quoted).size).toBe(quoted.length);
    expect(new Set(questions).size).toBe(questions.length);
  });

  it('an answer that starts like a library request ("continue …") stays in the dialogue', async () => {
    const { brain, kinds } = tutor();
    await brain.opening();
    const reply = await brain.respond('Continue the lamp work every night because she promised.');
    expect(reply).toContain(CHAPTER_1[1]);
    expect(kinds.at(-1)).toBe('why');
  });

  it('never turns a request into "themes": "quiz me on what I heard" gets a question about the book', async () => {
    const { brain, kinds } = tutor();
    await brain.opening();
    const reply = await brain.respond('Quiz me on what I heard');
    expect(kinds.at(-1)).toBe('next_question');
    expect(reply).not.toMatch(/'quiz'|'heard'|comes down to/u);
    expect(reply).toBe('Here is one. How does the sea shape the lives of Mara and Tobias?');
  });

  it("draws on a theme of the analysis that the heard text touches, not on the reader's words", async () => {
    const { book, text } = lighthouse();
    // The analysis finds "the sea" among the themes; the heard text speaks of it (chapter 2).
    const withSea = { ...book, analysis: { ...book.analysis!, themes: ['the sea', 'duty'] } };
    const books = memoryBookSource([{ userId: 'ann', book: withSea, text, position: POSITION }]);
    const toolbox = createToolbox({ userId: 'ann', books, clientPosition: () => undefined });
    const brain = createOfflineBrain({
      mode: 'tutor',
      jobId: book.id,
      callTool: (name, args) => toolbox.call(name, args),
    });
    await brain.opening();
    const said = 'Tobias is a worried fisherman who frets constantly.';
    const reply = await brain.respond(said);
    expect(reply).toContain('the book keeps coming back to the sea');
    expect(reply).toContain('Tobias');
    expect(saysBack(reply, said)).toEqual([]);
    expectGrounded(reply);
  });

  it('a reader who does not know gets a passage to think about, not the same question again', async () => {
    const { brain } = tutor();
    await brain.opening();
    const reply = await brain.respond("I don't know");
    expect(reply).toMatch(
      /^That's fine — let's look at the text together\. In chapter 1, at the very start, you heard: ".+" (?:What does that moment suggest to you|What do you notice in that line|Why might the story show us that here)\?$/,
    );
    expect(reply).toContain(CHAPTER_1[0]);
    expect(await brain.respond('next question please')).toBe(
      'Sure, a different one. How does the sea shape the lives of Mara and Tobias?',
    );
  });
});

describe('the tutor over the websocket', () => {
  let served: ServedAssistant;
  let assistant: VoiceAssistant;
  let url: string;
  const { book, text } = lighthouse();

  beforeAll(async () => {
    assistant = createVoiceAssistant({
      books: memoryBookSource([{ userId: 'ann', book, text, position: POSITION }]),
      // Text only: these tests read the answers, not the audio.
      engines: {
        synthesize: async () => new Int16Array(0),
        speechToText: null,
        chatModel: false,
        brain: ({ session, callTool }) => createOfflineBrain({ mode: session.mode, jobId: session.jobId, callTool }),
      },
    });
    served = await serveVoiceAssistant(assistant, 'ann');
    url = served.url;
  });
  afterAll(async () => {
    await served.close();
  });

  async function connect(): Promise<TestVoiceClient> {
    const c = await TestVoiceClient.connect(url);
    await c.handshake();
    return c;
  }

  it('a session remembers its dialogue across a reconnect, and the kept conversation across a mode switch', async () => {
    await assistant.sessions.start('ann', { mode: 'tutor', jobId: book.id });
    const first = await connect();
    expect((await first.waitForMessage('bot-llm-text')).data.text).toBe('What keeps Mara Quill on Gull Island?');
    const from = first.frames.length;
    first.sendMessage('send-text', {
      content: 'She stays because she promised to keep the lamp burning every night.',
      options: { audio_response: false },
    });
    expect(String((await first.waitForMessage('bot-output', 5000, from)).data.text)).toContain(CHAPTER_1[1]);
    first.close();
    await first.closed;

    const again = await connect();
    expect((await again.waitForMessage('bot-llm-text')).data.text).toBe(
      "Let's pick up where we were. What keeps Mara Quill on Gull Island?",
    );
    const next = again.frames.length;
    again.sendMessage('send-text', {
      content: 'Her brother forces her to stay out there.',
      options: { audio_response: false },
    });
    const reply = String((await again.waitForMessage('bot-output', 5000, next)).data.text);
    // The dialogue carried on: the passage already quoted is not quoted again.
    expect(reply).not.toContain(CHAPTER_1[1]);
    expect(reply).not.toContain(CHAPTER_2[2]);
    again.close();
    await again.closed;

    // Switching to X-ray and back keeps the conversation: the tutor carries on, it does not ask afresh.
    await assistant.sessions.start('ann', { mode: 'xray', jobId: book.id });
    await assistant.sessions.start('ann', { mode: 'tutor', jobId: book.id });
    const back = await connect();
    expect((await back.waitForMessage('bot-llm-text')).data.text).toBe(
      "Let's pick up where we were. What keeps Mara Quill on Gull Island?",
    );
    back.close();
  });
});

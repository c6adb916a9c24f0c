import { createOfflineBrain } from './brain';
import { memoryBookSource } from './books';
import { serveVoiceAssistant, type ServedAssistant } from '../testing/voice-socket';
import { createVoiceAssistant, type VoiceAssistant } from './service';
import { createToolbox } from './tools';
import { CHAPTER_1, CHAPTER_2, HEARD, POSITION, SPOILERS, lighthouse } from '../testing/keeper-book';
import { TestVoiceClient } from '../testing/voice-client';

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

describe('the Socratic tutor (offline)', () => {
  it('holds a dialogue: agrees with a passage, asks for more, counters, then moves to the next question — never echoing', async () => {
    const { brain, kinds } = tutor();
    const opening = await brain.opening();
    // The analysis's first question names Elias Thorne, who is not heard yet: it is skipped.
    expect(opening).toBe('What keeps Mara Quill on Gull Island?');

    const answers = [
      'She stays because she promised to keep the lamp burning every night.',
      'Duty, I guess.',
      'Her brother forces her to stay out there.',
      'I think she is proud of the work and would feel lost on the mainland.',
    ];
    const replies: string[] = [];
    for (const answer of answers) {
      const reply = await brain.respond(answer);
      replies.push(reply);
      expect(reply.trim().endsWith('?')).toBe(true);
      expect(echoes(reply, answer)).toBe(false);
      expectGrounded(reply);
    }
    expect(kinds).toEqual(['opening', 'agree', 'elaborate', 'counter', 'next_question']);
    // Agrees, quoting the heard passage that supports the answer, with where it was heard.
    expect(replies[0]).toMatch(
      new RegExp(
        `^(?:That fits what you heard|The text backs you up|You can see that) in chapter 1, about 14 seconds in: "${CHAPTER_1[1]}" `,
      ),
    );
    // Counters with a passage about the open question that the answer leaves out.
    expect(replies[2]).toContain(
      `Does the text bear that out? In chapter 1, at the very start, you heard: "${CHAPTER_1[0]}"`,
    );
    // Moves on to the next discussion question.
    expect(replies[3]).toMatch(/How does the sea shape the lives of Mara and Tobias\?$/);
    // No two follow-ups are worded the same.
    expect(new Set(replies).size).toBe(replies.length);
  });

  it('an answer that starts like a library request ("continue …") stays in the dialogue', async () => {
    const { brain, kinds } = tutor();
    await brain.opening();
    const reply = await brain.respond('Continue the lamp work every night because she promised.');
    expect(reply).toContain(CHAPTER_1[1]);
    expect(kinds.at(-1)).toBe('agree');
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

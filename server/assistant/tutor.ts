/**
 * The offline Socratic tutor: one open question at a time, grounded in the book's analysis and the
 * heard text. Each reader answer gets a follow-up that agrees and probes deeper (a heard passage
 * supports it), counters with a passage (nothing heard supports it), or asks them to go further
 * (a short answer); after three follow-ups, or when the reader asks, it moves on to the next
 * discussion question. It never repeats the reader's words back. The state of the dialogue lives
 * in a TutorState that the session keeps, so a reconnect carries on where it was.
 *
 * Spoiler bound: questions come from the analysis only when every name in them has been heard;
 * passages come from HeardIndex.find with the heard count.
 */
import type { BookAnalysis } from '../jobs/book';
import { describePlace, indexTerms, type HeardIndex, type IndexedSentence } from './heard-index';
import { heardPlaces } from './xray';
import { entityPattern, pick, shorten } from './text';

export interface TutorState {
  /** Questions asked so far, in order (the last one is the open question). */
  asked: string[];
  /** Follow-ups given on the open question. */
  followUps: number;
  /** The dialogue so far. */
  turns: { role: 'tutor' | 'reader'; text: string }[];
  /** Sentences already quoted (by index), so each follow-up brings a new passage. */
  quoted: Set<number>;
  /** Follow-up phrasings used, so none repeats. */
  phrasings: Set<string>;
}

export function newTutorState(): TutorState {
  return { asked: [], followUps: 0, turns: [], quoted: new Set(), phrasings: new Set() };
}

export interface TutorInput {
  title: string;
  bookId: string;
  analysis: BookAnalysis | null;
  index: HeardIndex;
  heardCount: number;
}

export type TutorMove =
  'opening' | 'resume' | 'agree' | 'counter' | 'elaborate' | 'scaffold' | 'next_question' | 'wrap_up' | 'not_started';

export interface TutorReply {
  answer: string;
  data: { kind: TutorMove; question: string; passage: { text: string; where: string } | null; turn: number };
}

/** Follow-ups after a reader turn: how many before moving to the next question. */
const FOLLOW_UPS_PER_QUESTION = 3;

const DONT_KNOW =
  /\b(?:(?:i\s+)?(?:don'?t|do\s+not|dunno)\s+know|not\s+sure|no\s+idea|can'?t\s+say|no\s+clue|i'?m\s+stuck)\b/iu;
const NEXT = /\b(?:next|another|different|new)\s+question\b|\bmove\s+on\b|\bskip\b|\bask\s+me\s+something\s+else\b/iu;

/** Names (capitalised words not opening the sentence) a question mentions. */
function namesIn(question: string): string[] {
  return (question.slice(1).match(/(?<![.?!]\s)\b\p{Lu}[\p{L}'’-]+/gu) ?? []).map((n) => n.replace(/['’]s$/u, ''));
}

/** The questions for what has been heard, best first: the analysis's own, then ones built from heard names, places and themes. */
export function tutorQuestions(input: TutorInput, sentences: readonly IndexedSentence[]): string[] {
  const heardText = sentences.map((s) => s.text).join(' ');
  const heard = (name: string) => entityPattern(name).test(heardText);
  const out: string[] = [];
  for (const q of input.analysis?.discussionQuestions ?? []) if (namesIn(q).every(heard)) out.push(q);
  const characters = (input.analysis?.characters ?? []).filter((c) => heard(c.name));
  const [first, second] = characters;
  if (first !== undefined)
    out.push(`What do you make of ${first.name} so far, and what in the story has shaped that view?`);
  if (first !== undefined && second !== undefined)
    out.push(`How would you describe what ${first.name} and ${second.name} mean to each other?`);
  const place = heardPlaces(sentences, input.analysis)[0];
  if (place !== undefined)
    out.push(`Why do you think the story places its people in ${place.name}? What would change somewhere else?`);
  const heardTerms = new Set(indexTerms(heardText));
  for (const theme of input.analysis?.themes ?? []) {
    if (indexTerms(theme).some((t) => heardTerms.has(t))) {
      out.push(`Where have you noticed ${theme} in the story so far, and what does the book seem to say about it?`);
      break;
    }
  }
  out.push(`What has surprised you most in ${input.title} so far, and why?`);
  out.push('If you could ask one character a question right now, who would it be, and what would you ask?');
  return [...new Set(out)];
}

/** Characters the analysis names that a sentence mentions (only heard ones are ever passed in). */
function characterIn(input: TutorInput, sentence: IndexedSentence, heardText: string): string | undefined {
  return (input.analysis?.characters ?? [])
    .find((c) => entityPattern(c.name).test(heardText) && entityPattern(c.name.split(/\s+/)[0]!).test(sentence.text))
    ?.name.split(/\s+/)[0];
}

function choose(state: TutorState, seed: string, options: readonly string[]): string {
  const fresh = options.filter((o) => !state.phrasings.has(o));
  const pool = fresh.length > 0 ? fresh : options;
  const chosen = pool[pick(seed, pool.length)]!;
  state.phrasings.add(chosen);
  return chosen;
}

export async function tutorTurn(input: TutorInput, state: TutorState, rawMessage: string): Promise<TutorReply> {
  const sentences = input.index.heard(input.heardCount);
  const message = rawMessage.trim();
  const turn = state.turns.filter((t) => t.role === 'reader').length + (message === '' ? 0 : 1);
  const reply = (kind: TutorMove, answer: string, question: string, passage: IndexedSentence | null): TutorReply => {
    state.turns.push({ role: 'tutor', text: answer });
    if (passage !== null) state.quoted.add(passage.index);
    return {
      answer,
      data: { kind, question, passage: passage && { text: passage.text, where: describePlace(passage.place) }, turn },
    };
  };

  if (sentences.length === 0) {
    const q = `You haven't started ${input.title} yet. What do you expect from a story with that title, and why?`;
    if (message !== '') state.turns.push({ role: 'reader', text: message });
    return reply('not_started', q, q, null);
  }

  const questions = tutorQuestions(input, sentences);
  const open = state.asked[state.asked.length - 1];
  const nextQuestion = (): string | null => questions.find((q) => !state.asked.includes(q)) ?? null;
  const ask = (kind: TutorMove, lead: string): TutorReply => {
    const q = nextQuestion();
    if (q === null) {
      const wrap = `${lead}We've worked through the questions for what you've heard so far. Which moment would you most like to talk through before you listen on?`;
      return reply('wrap_up', wrap.trim(), wrap.trim(), null);
    }
    state.asked.push(q);
    state.followUps = 0;
    return reply(kind, `${lead}${q}`, q, null);
  };

  if (message === '') {
    if (open !== undefined) return reply('resume', `Let's pick up where we were. ${open}`, open, null);
    return ask('opening', '');
  }

  state.turns.push({ role: 'reader', text: message });
  if (open === undefined) return ask('opening', '');

  const heardText = sentences.map((s) => s.text).join(' ');
  const fresh = (found: { sentence: IndexedSentence; terms: string[] }[]) =>
    found.find((p) => !state.quoted.has(p.sentence.index));
  // A passage for the open question, to scaffold or to counter with.
  const forQuestion = fresh(await input.index.find(open, input.heardCount, { limit: 8 }));

  if (NEXT.test(message) || state.followUps >= FOLLOW_UPS_PER_QUESTION) {
    const lead = NEXT.test(message)
      ? 'Sure, a different one. '
      : choose(state, message, [
          'Good — that gives us plenty to think about. Let’s turn to another question. ',
          'Let’s leave that there and look at something else. ',
          'That’s a reading worth holding on to. Here’s a new question. ',
        ]);
    return ask('next_question', lead);
  }
  state.followUps += 1;

  const answerTerms = indexTerms(message);
  if (DONT_KNOW.test(message) || answerTerms.length === 0) {
    if (forQuestion === undefined) return ask('next_question', 'That one is hard to pin down. Let’s try another. ');
    const s = forQuestion.sentence;
    const probe = choose(state, message, [
      'What does that moment suggest to you?',
      'What do you notice in that line?',
      'Why might the story show us that here?',
    ]);
    return reply(
      'scaffold',
      `That's fine — let's look at the text together. ${capitalise(describePlace(s.place))}, you heard: "${shorten(s.text, 150)}" ${probe}`,
      probe,
      s,
    );
  }

  // Heard passages that share the reader's words (BM25 over the heard sentences only).
  const supporting = (await input.index.find(message, input.heardCount, { limit: 8 })).filter(
    (p) => p.terms.length >= Math.min(2, answerTerms.length),
  );
  const support = fresh(supporting);

  if (answerTerms.length < 3) {
    const probe = choose(state, message, [
      'Can you take that further — what in the story makes you think so?',
      'Say a little more: which moment brought you to that?',
      'What would you point to in the text to show it?',
    ]);
    return reply('elaborate', probe, probe, null);
  }

  if (support !== undefined) {
    const s = support.sentence;
    const who = characterIn(input, s, heardText);
    const probe = choose(state, message, [
      who !== undefined ? `What does that tell you about ${who}?` : 'Why do you think the story shows it that way?',
      'Why do you think the story shows it that way?',
      'How might that shape what happens next?',
      'What would change if that moment were missing?',
    ]);
    const lead = choose(state, `${message}:lead`, [
      'That fits what you heard',
      'The text backs you up',
      'You can see that',
    ]);
    return reply('agree', `${lead} ${describePlace(s.place)}: "${shorten(s.text, 150)}" ${probe}`, probe, s);
  }

  if (supporting.length > 0) {
    // Backed by a passage already discussed: agree without quoting it again.
    const probe = choose(state, message, [
      'What else in the story points the same way?',
      'Where else have you seen that?',
      'Why do you think the story shows it that way?',
    ]);
    return reply('agree', `That matches the line we looked at earlier. ${probe}`, probe, null);
  }

  const counter = forQuestion ?? fresh(await input.index.find(heardText.slice(-400), input.heardCount, { limit: 8 }));
  if (counter === undefined) {
    const probe = 'What in what you have heard so far would you point to for that?';
    return reply('elaborate', `I'm not sure the text says that yet. ${probe}`, probe, null);
  }
  const s = counter.sentence;
  const probe = choose(state, message, [
    'How does that fit with your reading?',
    'Does that change your view, or does it still hold?',
    'How would you square that with your answer?',
  ]);
  return reply(
    'counter',
    `Does the text bear that out? ${capitalise(describePlace(s.place))}, you heard: "${shorten(s.text, 150)}" ${probe}`,
    probe,
    s,
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

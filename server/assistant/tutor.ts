/**
 * The offline Socratic tutor: one open question at a time, grounded in the book's analysis and the
 * heard text. Each reader answer gets a follow-up drawn from the book, never from the reader's own
 * words: who they spoke about, the heard place, a theme of the analysis that the heard text
 * touches, and the heard passage that bears on their answer (quoted once, pointed back to after).
 * It asks one open question that moves the dialogue on: why they read it so, then the evidence,
 * then another reading, then their own view; the next answer closes the question and the next
 * discussion question follows. "Quiz me" or "ask me a question" is a request, not an answer: it
 * gets a question. A passage that does not bear on the reader's words or the person they spoke of
 * is never quoted, and no question is asked twice. It never says the reader's words back. The state of the dialogue lives in a TutorState that the
 * session keeps, so a reconnect carries on where it was.
 *
 * Spoiler bound: questions come from the analysis only when every name in them has been heard;
 * passages come from HeardIndex.find with the heard count.
 */
import type { BookAnalysis } from '../books/book';
import { describePlace, indexTerm, indexTerms, type HeardIndex, type IndexedSentence } from './heard-index';
import { heardPlaces } from './xray';
import { entityPattern, pick, shorten } from './text';

export interface TutorState {
  /** Questions asked so far, in order (the last one is the open question). */
  asked: string[];
  /** Follow-ups given on the open question (the don't-knows included). */
  followUps: number;
  /** The next step of the follow-ups on the open question (an index into STAGES). */
  stage: number;
  /** The heard character the dialogue on the open question is about (so "she" has a name). */
  subject: string | null;
  /** The dialogue so far. */
  turns: { role: 'tutor' | 'reader'; text: string }[];
  /** Sentences already quoted (by index), so each follow-up brings a new passage. */
  quoted: Set<number>;
  /** Questions and phrasings the tutor has used, so none repeats. */
  phrasings: Set<string>;
}

export function newTutorState(): TutorState {
  return { asked: [], followUps: 0, stage: 0, subject: null, turns: [], quoted: new Set(), phrasings: new Set() };
}

export interface TutorInput {
  title: string;
  bookId: string;
  analysis: BookAnalysis | null;
  index: HeardIndex;
  heardCount: number;
}

export type TutorMove =
  | 'opening'
  | 'resume'
  | 'why'
  | 'evidence'
  | 'alternative'
  | 'own_view'
  | 'scaffold'
  | 'next_question'
  | 'wrap_up'
  | 'not_started';

export interface TutorReply {
  answer: string;
  data: { kind: TutorMove; question: string; passage: { text: string; where: string } | null; turn: number };
}

const DONT_KNOW =
  /\b(?:(?:i\s+)?(?:don'?t|do\s+not|dunno)\s+know|not\s+sure|no\s+idea|can'?t\s+say|no\s+clue|i'?m\s+stuck)\b/iu;
const NEXT = /\b(?:next|another|different|new)\s+question\b|\bmove\s+on\b|\bskip\b|\bask\s+me\s+something\s+else\b/iu;
/** The reader asks to be questioned ("quiz me on what I heard", "ask me a question about the book"). */
const QUIZ_ME =
  /\b(?:quiz|test)\s+me\b|\bask\s+me\s+(?:a|an|one|some)\s+(?:\w+\s+)?questions?\b|\bgive\s+me\s+a\s+question\b/iu;

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

function choose(state: TutorState, seed: string, options: readonly string[]): string {
  const fresh = options.filter((o) => !state.phrasings.has(o));
  const pool = fresh.length > 0 ? fresh : options;
  const chosen = pool[pick(seed, pool.length)]!;
  state.phrasings.add(chosen);
  return chosen;
}

/** Words a reader uses that say nothing about the book ("I think she seems …"). */
const GENERIC = new Set(
  (
    'think guess maybe perhaps probably seems seem seemed feel feels felt because like kind sort bit quite lot lots ' +
    'thing things something anything way ways does make makes made also even still want wants believe pretty ' +
    'yeah well sure get gets got people person story book character characters every really actually mean means ' +
    'im ive shes hes theyre dont doesnt didnt isnt wasnt cant one ones much many lot little being going goes ' +
    'under over once says tell tells told knows knew would could out there then about after before again time times ' +
    'always more less other same own around through while who whom because'
  ).split(' '),
);

/** The tutor's follow-ups on one question, in order: why → evidence → alternative → the reader's own view. */
const STAGES = ['why', 'evidence', 'alternative', 'own_view'] as const;
type Stage = (typeof STAGES)[number];

/** What the reader just said, as the tutor looks it up: who it is about and their key words. */
interface Focus {
  /** A heard character the answer is about (named, or the open question's when they say "she"); null when none. */
  who: string | null;
  /** The reader's own content words, at most two: only to find the passage that bears on them, never said back. */
  words: string[];
}

/** What of the book a follow-up draws on: the heard place and a theme the heard text touches. */
interface BookThread {
  place: string | null;
  theme: string | null;
}

function bookThread(input: TutorInput, sentences: readonly IndexedSentence[], heardText: string): BookThread {
  const heardTerms = new Set(indexTerms(heardText));
  const theme = (input.analysis?.themes ?? []).find((t) => indexTerms(t).some((term) => heardTerms.has(term))) ?? null;
  return { place: heardPlaces(sentences, input.analysis)[0]?.name ?? null, theme };
}

function characterNamed(input: TutorInput, text: string, heardText: string): string | null {
  for (const c of input.analysis?.characters ?? []) {
    if (!entityPattern(c.name).test(heardText)) continue;
    const parts = c.name.split(/\s+/).filter((p) => p.length > 2);
    const named = parts.find((p) => entityPattern(p).test(text) && entityPattern(p).test(heardText));
    if (named !== undefined) return parts[0]!;
  }
  return null;
}

function focusOf(input: TutorInput, state: TutorState, message: string, open: string, heardText: string): Focus {
  // Named by the reader, else the person the open question is about, else the one spoken of last.
  const who = characterNamed(input, message, heardText) ?? characterNamed(input, open, heardText) ?? state.subject;
  const names = new Set((input.analysis?.characters ?? []).flatMap((c) => c.name.toLowerCase().split(/\s+/)));
  const heardTerms = new Set(indexTerms(heardText));
  const candidates: { word: string; at: number; score: number }[] = [];
  const seen = new Set<string>();
  for (const [at, raw] of (message.match(/[\p{L}][\p{L}'’-]*/gu) ?? []).entries()) {
    const word = raw.toLowerCase().replace(/['’]s$/u, '');
    const term = indexTerm(word);
    if (term === null || seen.has(term) || GENERIC.has(word.replace(/['’]/gu, '')) || names.has(word)) continue;
    if (word.length < 3) continue;
    seen.add(term);
    // The reader's longest words carry their idea; a word the book also uses ties it to the text.
    candidates.push({ word, at, score: word.length + (heardTerms.has(term) ? 3 : 0) });
  }
  const words = candidates
    .sort((a, b) => b.score - a.score || a.at - b.at)
    .slice(0, 2)
    .sort((a, b) => a.at - b.at)
    .map((c) => c.word);
  return { who, words };
}

/**
 * The heard passage that bears on what the reader said: it mentions their words or the person
 * they talk about (BM25 over the heard sentences only), best first; one not quoted yet when there
 * is one. Null when nothing heard bears on it (then nothing is quoted).
 */
async function passageFor(
  input: TutorInput,
  state: TutorState,
  focus: Focus,
): Promise<{ sentence: IndexedSentence; fresh: boolean } | null> {
  const query = [focus.who ?? '', ...focus.words].join(' ').trim();
  if (query === '') return null;
  const found = await input.index.find(query, input.heardCount, { limit: 12, fuzzy: false });
  const about = focus.who === null ? null : entityPattern(focus.who);
  const wordTerms = new Set(focus.words.flatMap((w) => indexTerms(w)));
  // The reader's words and the person first, then their words, then the person.
  const ranked = [...found].sort((a, b) => rank(b) - rank(a) || b.score - a.score);
  function rank(p: (typeof found)[number]): number {
    return (about?.test(p.sentence.text) ? 1 : 0) + (p.terms.some((t) => wordTerms.has(t)) ? 2 : 0);
  }
  const fresh = ranked.find((p) => !state.quoted.has(p.sentence.index));
  if (fresh !== undefined) return { sentence: fresh.sentence, fresh: true };
  return ranked[0] === undefined ? null : { sentence: ranked[0].sentence, fresh: false };
}

/** How the passage enters the turn: quoted when new, pointed back to when already discussed. */
function citing(passage: { sentence: IndexedSentence; fresh: boolean } | null, focus: Focus): string {
  if (passage === null)
    return focus.who === null
      ? "I can't find anything in what you've heard so far that speaks to that directly."
      : `I can't find a moment about ${focus.who} in what you've heard so far that speaks to that directly.`;
  const where = describePlace(passage.sentence.place);
  return passage.fresh
    ? `${capitalise(where)}, you heard: "${shorten(passage.sentence.text, 150)}"`
    : `Think back to the line you heard ${where}, the one we looked at.`;
}

/** A word of the passage the reader did not use: another reading to weigh against theirs. */
function otherReading(sentence: IndexedSentence, focus: Focus, input: TutorInput): string | null {
  const mine = new Set(focus.words.flatMap((w) => indexTerms(w)));
  const names = new Set((input.analysis?.characters ?? []).flatMap((c) => c.name.toLowerCase().split(/\s+/)));
  const words = (sentence.text.match(/[\p{L}][\p{L}'’-]*/gu) ?? [])
    .map((w) => w.toLowerCase())
    .filter((w) => w.length >= 4 && !names.has(w) && !GENERIC.has(w))
    .filter((w) => {
      const term = indexTerm(w);
      return term !== null && !mine.has(term);
    });
  return words.sort((a, b) => b.length - a.length)[0] ?? null;
}

/** Where the follow-up sits in the book: the person, else the heard place, else the book itself. */
function inTheBook(who: string | null, thread: BookThread, title: string): string {
  if (who !== null) return who;
  if (thread.place !== null) return thread.place;
  return `what you have heard of ${title}`;
}

/** One follow-up: the book's side of what the reader said, the passage that bears on it, and one open question for the stage. */
function followUp(
  stage: Stage,
  focus: Focus,
  passage: { sentence: IndexedSentence; fresh: boolean } | null,
  input: TutorInput,
  thread: BookThread,
): { lead: string; question: string } {
  const who = focus.who;
  const where = inTheBook(who, thread, input.title);
  const theme = thread.theme === null ? '' : `, and the book keeps coming back to ${thread.theme}`;
  switch (stage) {
    case 'why':
      return {
        lead: `That says something about ${where}${who !== null && thread.place !== null ? ` and about ${thread.place}` : ''}${theme}.`,
        question: `What makes you read ${who ?? 'it'} that way at this point in the story?`,
      };
    case 'evidence':
      return {
        lead: `Let’s test your reading of ${where} against the text.`,
        question:
          passage === null
            ? 'Which moment you have heard would you point to for your reading?'
            : 'Does that line bear out your reading, or is there a moment that shows it better?',
      };
    case 'alternative': {
      const other = passage === null ? null : otherReading(passage.sentence, focus, input);
      return {
        lead: `That is one reading of ${where}.`,
        question:
          thread.theme !== null
            ? `Another listener might hear ${thread.theme} in that instead. How would you answer them?`
            : other === null
              ? `How might another listener read ${who ?? 'this'} differently, and what would they point to?`
              : `Another listener might hear that line as being about '${other}' more than anything else. How would you answer them?`,
      };
    }
    case 'own_view':
      return {
        lead: `You've weighed ${where} against the text${theme}.`,
        question:
          who === null
            ? 'Leaving the text aside, where do you stand yourself, and why?'
            : `Leaving the text aside, what do you make of ${who} yourself: would you have done the same in ${who}'s place, and why?`,
      };
  }
}

/** The acknowledgement that closes a question: it names whom in the book the reader spoke of. */
function closing(focus: Focus): string {
  return focus.who === null
    ? 'Thank you — that gives us plenty to think about. Here is a new question.'
    : `Thank you — that is a view of ${focus.who} worth keeping. Here is a new question.`;
}

export async function tutorTurn(input: TutorInput, state: TutorState, rawMessage: string): Promise<TutorReply> {
  const sentences = input.index.heard(input.heardCount);
  const message = rawMessage.trim();
  const turn = state.turns.filter((t) => t.role === 'reader').length + (message === '' ? 0 : 1);
  const reply = (kind: TutorMove, answer: string, question: string, passage: IndexedSentence | null): TutorReply => {
    state.turns.push({ role: 'tutor', text: answer });
    state.phrasings.add(question);
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
    state.subject = null;
    if (q === null) {
      const wrap = `${lead} We've worked through the questions for what you've heard so far. Which moment would you most like to talk through before you listen on?`;
      return reply('wrap_up', wrap.trim(), wrap.trim(), null);
    }
    state.asked.push(q);
    state.followUps = 0;
    state.stage = 0;
    return reply(kind, `${lead} ${q}`.trim(), q, null);
  };

  if (message === '') {
    if (open !== undefined) return reply('resume', `Let's pick up where we were. ${open}`, open, null);
    return ask('opening', '');
  }

  state.turns.push({ role: 'reader', text: message });
  if (open === undefined) return ask('opening', '');
  if (NEXT.test(message)) return ask('next_question', 'Sure, a different one.');
  if (QUIZ_ME.test(message)) return ask('next_question', 'Here is one.');

  const heardText = sentences.map((s) => s.text).join(' ');

  if (DONT_KNOW.test(message)) {
    // A passage about the open question to think about; the dialogue stays on the same step.
    const forQuestion = (await input.index.find(open, input.heardCount, { limit: 8 })).find(
      (p) => !state.quoted.has(p.sentence.index),
    );
    state.followUps += 1;
    if (forQuestion === undefined || state.followUps > STAGES.length)
      return ask('next_question', 'That one is hard to pin down. Let’s try another.');
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

  const focus = focusOf(input, state, message, open, heardText);
  if (focus.who !== null) state.subject = focus.who;
  const step = state.stage;
  if (step >= STAGES.length) return ask('next_question', closing(focus));
  state.stage += 1;
  state.followUps += 1;
  const stage = STAGES[step]!;
  const passage = await passageFor(input, state, focus);
  const { lead, question } = followUp(stage, focus, passage, input, bookThread(input, sentences, heardText));
  // Never the same question twice in a conversation: a repeat gets the stage's plainer wording.
  const asked = state.phrasings.has(question) ? fallbackQuestion(stage, state) : question;
  return reply(stage, `${lead} ${citing(passage, focus)} ${asked}`, asked, passage?.fresh ? passage.sentence : null);
}

/** A stage's plain questions, for when its usual one was already asked in this conversation. */
function fallbackQuestion(stage: Stage, state: TutorState): string {
  const plain: Record<Stage, string[]> = {
    why: ['Why do you think so?', 'What brought you to that view?', 'What is behind that reading for you?'],
    evidence: ['Which moment would you point to for that?', 'Where in what you heard does that show?'],
    alternative: ['How else could that be read?', 'What would someone who disagrees point to?'],
    own_view: ['Where do you stand on it yourself?', 'What would you have done, and why?'],
  };
  return choose(state, `${stage}:${state.turns.length}`, plain[stage]);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

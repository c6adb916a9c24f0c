import { getGetAudioCastMockHandler } from '../api/gen/endpoints/audio/get-audio-cast.msw';
import { getGetAudioTranscriptMockHandler } from '../api/gen/endpoints/audio/get-audio-transcript.msw';
import { getPutAudioCastMockHandler } from '../api/gen/endpoints/audio/put-audio-cast.msw';
import type {
  Cast,
  CastUpdate,
  CastUpdateResult,
  JobCreateRequest,
  JobPreview,
  SpeakerSpan,
  Transcript,
} from '../api/gen/model';
import { answer, failWith, type ReplyOptions } from './answer';
import { bookJobId, chapterInfoFixtures } from './audio';
import { errorBodyFixture } from './fixtures';
import { previewJobHandler, textPreviewFixture } from './library';

/**
 * The sample book read with a full cast (src/mocks/audio.ts's book, its text a dialogue): its
 * cast, its chapters' sentences cut into who speaks each part, and corrections.
 */
export function castFixture(): Cast {
  return {
    narrator: { voice_id: 'af_heart' },
    characters: [
      { id: 'marta', name: 'Marta', aliases: ['she'], gender: 'female', voice_id: 'af_bella', lines: 12 },
      { id: 'tobias', name: 'Tobias', aliases: [], gender: 'male', voice_id: 'bm_george', lines: 9 },
    ],
  };
}

/** A sentence and who speaks its quotes, in order: a character's id, with `?` when it is a guess. */
type Line = [text: string, ...speakers: string[]];

/** Per chapter, its paragraphs of sentences. */
const CAST_TEXT: Line[][][] = [
  [
    [['The rain had not stopped for three days.'], ['"Is anyone there?" Marta called from the stairs.', 'marta']],
    [['Nobody answered her.'], ['"Hello?"', 'marta']],
  ],
  [
    [['"Who is there?" Marta asked.', 'marta'], ['Tobias did not answer at once.']],
    [
      ['"It is only me," said Tobias.', 'tobias'],
      ['"Then come in," she said, "before the rain does."', 'marta', 'marta'],
    ],
    [['"You are late again."', 'tobias?']],
  ],
  [
    [['They sat by the stove.'], ['"Tell me everything," Marta said.', 'marta']],
    [['"There is not much to tell," Tobias said.', 'tobias'], ['He smiled.']],
  ],
];

/** Where each quote of a sentence lies in its text: its opening mark to one past its closing one. */
function quotesOf(text: string): { from: number; to: number }[] {
  return [...text.matchAll(/"[^"]*"/g)].map((m) => ({ from: m.index, to: m.index + m[0].length }));
}

/** The sentence's parts: its quotes by their speakers, the narrator between them (as the server cuts them). */
function spansOf(text: string, at: number, speakers: readonly string[]): SpeakerSpan[] {
  const spans: SpeakerSpan[] = [];
  let from = 0;
  quotesOf(text).forEach((quote, i) => {
    const who = speakers[i] ?? 'narrator';
    if (quote.from > from) spans.push({ char_start: at + from, char_end: at + quote.from, speaker: 'narrator' });
    spans.push({
      char_start: at + quote.from,
      char_end: at + quote.to,
      speaker: who.replace(/\?$/, ''),
      quote_start: at + quote.from,
      ...(who.endsWith('?') && { uncertain: true }),
    });
    from = quote.to;
  });
  if (from < text.length) spans.push({ char_start: at + from, char_end: at + text.length, speaker: 'narrator' });
  return spans;
}

/**
 * Chapter `chapter` of the cast book as the read-along answers it, with `overrides` (chapter,
 * quote start, speaker) applied: its sentences spread evenly over the chapter's 20 s.
 */
export function castTranscriptFixture(
  chapter = 1,
  overrides: readonly { chapter: number; char_start: number; speaker: string }[] = [],
): Transcript {
  const paragraphs = CAST_TEXT[chapter - 1] ?? [];
  const info = chapterInfoFixtures()[chapter - 1]!;
  const all = paragraphs.flatMap((lines) => lines.map((line, i) => ({ line, paragraphStart: i === 0 })));
  const step = info.duration / Math.max(1, all.length);
  let offset = 0;
  return {
    job_id: bookJobId,
    chapter: { id: info.id, order: info.order, title: info.title, start: info.start, duration: info.duration },
    chapter_count: CAST_TEXT.length,
    sentences: all.map(({ line: [text, ...speakers], paragraphStart }, index) => {
      if (index > 0) offset += paragraphStart ? 2 : 1;
      const char_start = offset;
      offset += text.length;
      const spans = spansOf(text, char_start, speakers).map((span) => {
        const changed = overrides.findLast((o) => o.chapter === chapter && o.char_start === span.quote_start);
        if (!changed) return span;
        const { uncertain: _guess, ...sure } = span;
        return { ...sure, speaker: changed.speaker };
      });
      return {
        index,
        start: Math.round(index * step * 100) / 100,
        end: Math.round((index + 1) * step * 100) / 100,
        text,
        char_start,
        char_end: offset,
        paragraph_start: paragraphStart,
        spans,
      };
    }),
  };
}

/**
 * A small server for the cast book: GET cast, the transcript with the corrections kept so far, and
 * PUT cast keeping them (each correction reads `reconverting` again, chapter 2 by default).
 * `onPut` sees each request's body.
 */
export function castBackend(
  options: ReplyOptions & { reconverting?: number[]; onPut?: (body: CastUpdate) => void } = {},
) {
  const overrides: { chapter: number; char_start: number; speaker: string }[] = [];
  return {
    audioCast: getGetAudioCastMockHandler(() => castFixture()),
    audioTranscript: getGetAudioTranscriptMockHandler(({ request }) => {
      const chapter = Number(new URL(request.url).searchParams.get('chapter') ?? 1);
      if (!CAST_TEXT[chapter - 1]) failWith(404, errorBodyFixture(`This audiobook has no chapter ${chapter}`));
      return castTranscriptFixture(chapter, overrides);
    }),
    putAudioCast: getPutAudioCastMockHandler(
      answer(options, async ({ request }): Promise<CastUpdateResult> => {
        const body = (await request.clone().json()) as CastUpdate;
        options.onPut?.(body);
        overrides.push(...(body.overrides ?? []));
        return { ...castFixture(), chapters_reconverting: options.reconverting ?? [2] };
      }),
    ),
  };
}

/**
 * POST /jobs/preview for pasted text: with `voice_config.cast`, the cast the text would have (the
 * cast book's, its narrator the requested voice); `onBody` sees each request.
 */
export function castPreviewHandler(options: ReplyOptions & { onBody?: (body: JobCreateRequest) => void } = {}) {
  return previewJobHandler({
    ...options,
    preview: (body): JobPreview => {
      const preview = textPreviewFixture(body.title, body.content?.length ?? 0);
      if (body.voice_config?.cast !== true) return preview;
      const cast = castFixture();
      return {
        ...preview,
        cast: { ...cast, narrator: { voice_id: body.voice_config.voice_id ?? cast.narrator.voice_id } },
      };
    },
  });
}

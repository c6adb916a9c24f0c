/**
 * synthesize: the job's text read aloud into its MP3 and timing map, encoded while it is spoken
 * (../synthesis.ts), with the reader's pronunciations applied (../speech.ts). A full-cast text or
 * chapter is read span by span, each in its speaker's voice (../cast-pieces.ts). A standalone
 * text's tutoring analysis runs beside it.
 */
import { matchingEntries, compileRules, type Rules } from '../../pronunciations/rules';
import { splitIntoChunks } from '../../tts/chunking';
import { selectEngine, type Provider, type VoiceSettings } from '../../tts/select';
import type { Speech } from '../../tts/types';
import { joinSentenceParts, voicedPieces, type ChapterVoices } from '../cast-pieces';
import { appliedRecord, createSpeaker, encodedSpeaking, encoderName } from '../speech';
import { audioKey, openingKey, timingKey } from '../storage-keys';
import { SampleRateChange, segmentCount, synthesizeToMp3, type SynthesisResult } from '../synthesis';
import type { JobRecord } from '../types';
import { analyseAndKeep, jobText, PipelineError, type Step, type StepContext, type StepDeps } from './context';

/**
 * About how many characters a book's first chapter's opening holds: some two minutes of speech,
 * synthesised in about a second on one core by the offline voice
 * (docs/listening.md#the-opening-of-the-first-chapter).
 */
const OPENING_CHARS = 2_000;

/** A book's first chapter (chapters are numbered from 1), converted before the others. */
function isFirstChapter(job: JobRecord): boolean {
  return job.parentJobId !== null && job.chapterOrder === 1;
}

/**
 * One request per chunk of whole sentences (timings inside a chunk are by character share),
 * or per sentence for engines that say so (each sentence's time is then exact).
 */
function piecesOf(text: string, engine: { maxCharsPerRequest: number; sentencePerRequest?: boolean | undefined }) {
  const chunks = splitIntoChunks(text, engine.maxCharsPerRequest);
  const pieces = engine.sentencePerRequest
    ? chunks.flatMap((c) => c.sentences.map((sentence) => ({ ...sentence, sentences: [sentence] })))
    : chunks.map((c) => ({ start: c.start, end: c.end, sentences: c.sentences }));
  return { chunks, pieces };
}

/** Speech in the voice each piece names (a full cast's): one speaker per voice, made when first needed. */
function castSpeaker(voices: VoiceSettings, provider: Provider, narrator: string, rules: Rules | null) {
  const speakers = new Map<string, (text: string, signal: AbortSignal) => Promise<Speech>>();
  return (text: string, signal: AbortSignal, voice?: string): Promise<Speech> => {
    const id = voice ?? narrator;
    let speak = speakers.get(id);
    if (speak === undefined) {
      const selection = selectEngine(voices, provider, id);
      speak = createSpeaker(selection.engine, selection.voiceId, rules);
      speakers.set(id, speak);
    }
    return speak(text, signal);
  };
}

/** What the step records of a cast: what the chapter's voices said (compared when the cast is corrected) and the voices. */
function castRecord(cast: ChapterVoices | null) {
  if (cast === null) return {};
  return { cast: cast.signature, cast_voices: [...new Set([cast.narrator, ...cast.spans.map((s) => s.voice)])] };
}

/** A book's first chapter plays its first minutes while the rest converts. */
function openingOf({ repo }: Pick<StepDeps, 'repo'>, job: JobRecord, onReady: (seconds: number) => void) {
  if (!isFirstChapter(job)) return undefined;
  return {
    chars: OPENING_CHARS,
    key: openingKey(job.id),
    ready: async (duration: number) => {
      await repo.jobs.mergeConfig(job.id, { opening: { file_key: openingKey(job.id), duration } });
      onReady(duration);
    },
  };
}

/** Reads the job's text aloud into its MP3 and timing map (the synthesize step's work). */
async function synthesizeText(deps: StepDeps, { job, signal, report }: StepContext) {
  const { repo, storage } = deps;
  const text = await jobText(deps, job);
  const provider = job.config.voice_config?.provider ?? job.config.provider ?? 'openai';
  const selection = selectEngine(deps.voices, provider, job.config.voice_config?.voice_id);
  const { engine } = selection;
  const { chunks, pieces: sentencePieces } = piecesOf(text, engine);
  if (sentencePieces.length === 0) throw new PipelineError('The text has nothing to read aloud');
  // The reader's pronunciations change what the voice reads, never the text (nor the transcript).
  const rules = compileRules(await deps.pronunciations.forUser(job.userId));
  const cast = (await deps.cast?.chapterCast(job)) ?? null;
  const pieces = cast === null ? sentencePieces : voicedPieces(text, sentencePieces, cast);
  const key = audioKey(job.id);
  // The offline voice runs on this machine: a long standalone text is encoded in several
  // streams at once (a book's chapters already are), and so is a book's first chapter, which
  // converts alone so the book is playable soonest (docs/listening.md#the-first-chapter-first).
  // Cloud voices keep one request at a time.
  const segments =
    engine.name === 'espeak-ng' && (job.parentJobId === null || isFirstChapter(job))
      ? segmentCount(text.length, deps.encoderPool?.parallelism ?? 1)
      : 1;
  let openingSeconds: number | null = null;
  const opening = openingOf(deps, job, (seconds) => (openingSeconds = seconds));
  let result: SynthesisResult;
  try {
    result = await synthesizeToMp3({
      text,
      pieces,
      // A cast's voices change from piece to piece: its speech is PCM, encoded here.
      speak:
        cast === null
          ? createSpeaker(engine, selection.voiceId, rules)
          : castSpeaker(deps.voices, provider, cast.narrator, rules),
      encoded: cast === null ? encodedSpeaking(engine, selection.voiceId, rules) : undefined,
      lookahead: engine.concurrency ?? 1,
      storage,
      key,
      pool: deps.encoderPool,
      segments,
      signal,
      report,
      opening,
    });
  } catch (error) {
    // A failed attempt deletes what it encoded, the opening too: nobody is sent to it any more.
    if (opening) await repo.jobs.mergeConfig(job.id, { opening: null }).catch(() => undefined);
    if (error instanceof SampleRateChange) throw new PipelineError(error.message);
    throw error;
  }
  // A cast's sentences were read in parts: the map keeps one entry per sentence.
  const timings =
    cast === null
      ? result.timings
      : joinSentenceParts(
          result.timings,
          chunks.flatMap((c) => c.sentences),
        );
  const timing = Buffer.from(JSON.stringify(timings));
  await storage.write(timingKey(key), timing);
  return {
    metadata: {
      engine: engine.name,
      ...('backend' in engine && { engine_backend: engine.backend }),
      provider,
      voice: selection.voiceId,
      requested_voice: selection.requestedVoiceId,
      stand_in: selection.standIn,
      characters: text.length,
      chunks: chunks.length,
      requests: pieces.length,
      sentences: chunks.reduce((n, c) => n + c.sentences.length, 0),
      sample_rate: result.sampleRate,
      word_timings: timings.some((t) => t.words !== undefined),
      pronunciations: appliedRecord(await matchingEntries(text, rules)),
      ...castRecord(cast),
      encoded_while_synthesizing: true,
      encoder: encoderName(result.encodedByVoice, deps.encoderPool),
      encoder_streams: result.segments,
      ...(openingSeconds !== null && { opening_seconds: openingSeconds }),
      duration_seconds: result.durationSeconds,
      file_size_bytes: result.bytes,
      timing_file_bytes: timing.byteLength,
      output_file_key: key,
    },
  };
}

export const synthesize: Step = async (deps, ctx) => {
  const { job, signal } = ctx;
  // A text's tutoring analysis (one thread, one core, a second or two) runs beside its voice
  // and encoders instead of before them, and is kept for its analyze step. If it fails here,
  // the analyze step runs it again and reports why, with its own retries.
  const besides =
    job.jobType === 'text_to_audio' && job.parentJobId === null && job.config.tutoring_analysis === undefined
      ? analyseAndKeep(deps, job, signal).then(
          () => undefined,
          () => undefined,
        )
      : undefined;
  try {
    return await synthesizeText(deps, ctx);
  } finally {
    await besides;
  }
};

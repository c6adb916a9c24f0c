/**
 * The listener's corrections of a cast (`PUT /audio/{jobId}/cast`), checked against the cast and
 * the book's voice source before anything is kept: another voice for a character or the narrator
 * (one `GET /voices` lists for the book's provider), another speaker for a quoted span (found by
 * where it starts in its chapter). Every mistake is a 422 naming it; nothing is kept unless all pass.
 */
import { DomainError } from '../errors';
import type { JobRecord } from '../jobs/types';
import type { VoiceCatalog } from '../voices/catalog';
import type { StoredCast } from './repository';
import { NARRATOR } from './types';

export interface CastUpdate {
  voices?: Record<string, string> | undefined;
  overrides?: { chapter: number; char_start: number; speaker: string }[] | undefined;
}

/** Speakers one request may give voices to. */
export const MAX_VOICE_CHANGES = 500;

const invalid = (message: string) => new DomainError('invalid', message);

/** A name as a message may quote it: printable, and short. */
const quoted = (s: string) => {
  const printable = [...s].map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? '?' : c)).join('');
  return printable.length > 60 ? `${printable.slice(0, 60)}...` : printable;
};

async function providerVoices(catalog: Pick<VoiceCatalog, 'list'>, provider: string): Promise<Set<string>> {
  const { voices } = await catalog.list();
  return new Set(voices.filter((v) => v.provider === provider).map((v) => v.id));
}

/** The cast with `change` applied; the first mistake in it fails the whole change (422). */
export async function updateCast(
  deps: { catalog: Pick<VoiceCatalog, 'list'> },
  job: Pick<JobRecord, 'config'>,
  cast: StoredCast,
  change: CastUpdate,
): Promise<StoredCast> {
  const speakers = new Set([NARRATOR, ...cast.characters.map((c) => c.id)]);
  const voices = Object.entries(change.voices ?? {});
  if (voices.length > MAX_VOICE_CHANGES) throw invalid(`At most ${MAX_VOICE_CHANGES} voices can be changed at once`);
  const provider = job.config.voice_config?.provider ?? job.config.provider ?? 'openai';
  const chosen = new Map<string, string>();
  // The voices listed now (a voice server's list is asked for once, not once per speaker).
  const listed = voices.length === 0 ? new Set<string>() : await providerVoices(deps.catalog, provider);
  for (const [speaker, voiceId] of voices) {
    if (!speakers.has(speaker)) throw invalid(`This book has no character "${quoted(speaker)}"`);
    if (!listed.has(voiceId)) throw invalid(`There is no voice "${quoted(voiceId)}" of ${provider} to read with`);
    chosen.set(speaker, voiceId);
  }
  const chapters = cast.chapters.map((spans) => spans.map((s) => ({ ...s })));
  for (const o of change.overrides ?? []) {
    if (!speakers.has(o.speaker)) throw invalid(`This book has no character "${quoted(o.speaker)}"`);
    const spans = chapters[o.chapter - 1];
    if (spans === undefined) {
      throw invalid(`There is no chapter ${o.chapter}: this book has ${chapters.length}`);
    }
    const span = spans.find((s) => s.char_start === o.char_start);
    if (span === undefined) {
      throw invalid(`No quoted line of chapter ${o.chapter} starts at character ${o.char_start}`);
    }
    span.speaker = o.speaker;
    // The listener said who speaks it: no longer a guess.
    span.confidence = 1;
  }
  return {
    narrator_voice: chosen.get(NARRATOR) ?? cast.narrator_voice,
    characters: cast.characters.map((c) => ({ ...c, voice_id: chosen.get(c.id) ?? c.voice_id })),
    chapters,
  };
}

import type { Cast } from '../../api/gen/model';

/** How a quote's speaker is written for the listener: the character's name, or "Narrator". */
export function speakerName(cast: Pick<Cast, 'characters'> | undefined, speaker: string): string {
  if (speaker === 'narrator') return 'Narrator';
  return cast?.characters.find((c) => c.id === speaker)?.name ?? 'Someone';
}

/** The tones the characters' quotes are marked with, in the cast's order (the most lines first). */
const SPEAKER_TONES = ['info', 'success', 'danger', 'neutral'] as const;
export type SpeakerTone = (typeof SPEAKER_TONES)[number];

/** A speaker's tone: a character's by its place in the cast, the narrator's neutral. */
export function speakerTone(cast: Pick<Cast, 'characters'> | undefined, speaker: string): SpeakerTone {
  const at = cast?.characters.findIndex((c) => c.id === speaker) ?? -1;
  if (speaker === 'narrator' || at < 0) return 'neutral';
  return SPEAKER_TONES[at % (SPEAKER_TONES.length - 1)]!;
}

/** "Chapter 3 is being read again with the new voice", "Chapters 2 and 5 are being read again…". */
export function reconvertingNotice(chapters: readonly number[]): string {
  if (chapters.length === 1) return `Chapter ${chapters[0]} is being read again with the new voice`;
  const list = `${chapters.slice(0, -1).join(', ')} and ${chapters[chapters.length - 1]}`;
  return `Chapters ${list} are being read again with the new voices`;
}

/**
 * A book's cast: who speaks each quoted span of its chapters. Attribution (./attribution) finds the
 * characters and the spans offline; the cast service gives each character a voice and keeps the
 * listener's corrections. These types are what the two share.
 */

/** The narrator, as a span's speaker: every text outside a quote, and a quote no one can be given. */
export const NARRATOR = 'narrator';

export type CastGender = 'female' | 'male' | 'unknown';

/** A character who speaks at least one line. */
export type CastCharacter = {
  /** Stable within the book: the lower-cased, hyphenated display name ("captain-harris"). */
  id: string;
  /** The fullest form the book uses ("Captain Harris"). */
  name: string;
  /** Every other form that names the same person ("Harris", "the captain"). */
  aliases: string[];
  /** From the pronouns the book uses for the character. */
  gender: CastGender;
};

/** One quoted span of a chapter's text and who speaks it. Offsets are UTF-16 indices into the text. */
export type SpokenSpan = {
  /** The opening quotation mark's index. */
  charStart: number;
  /** One past the closing quotation mark. */
  charEnd: number;
  /** A character's id, or NARRATOR. */
  speaker: string;
  /** 0..1: how sure attribution is. */
  confidence: number;
};

export type Attribution = {
  characters: CastCharacter[];
  /** Per chapter, in the order given, its quoted spans in text order (narration is what lies between). */
  chapters: SpokenSpan[][];
};

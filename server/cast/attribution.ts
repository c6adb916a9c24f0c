/**
 * Who speaks each quoted span of a book, found offline: quotes and scene breaks
 * (./attribution/quotes), the book's names (./attribution/names) and people (./attribution/cast),
 * who the narration mentions and the genders the pronouns give (./attribution/mentions), the
 * speech tags (./attribution/tags) and the rules that weigh them (./attribution/rules).
 * Narration is never a span, so it can never be given to a character.
 */
import { Cast } from './attribution/cast';
import { discoverNames, discoverRoles } from './attribution/names';
import { findMentions, layoutChapter, settleGenders, type ChapterLayout } from './attribution/mentions';
import { quoteStyle } from './attribution/quotes';
import { attributeChapter } from './attribution/rules';
import type { Attribution, CastCharacter } from './types';

/** The characters of a book and, per chapter, its quoted spans with their speakers. */
export function attributeBook(chapters: readonly { text: string }[]): Attribution {
  const texts = chapters.map((c) => c.text);
  const style = quoteStyle(texts);
  const laid = texts.map((text) => layoutChapter(text, style));
  // Roles are read in narration only: in a quote, "the door, Marta" is no appositive.
  const cast = new Cast(discoverNames(texts), discoverRoles(laid));
  const layouts: ChapterLayout[] = laid.map((layout) => ({ ...layout, mentions: findMentions(layout, cast) }));
  settleGenders(cast, layouts);
  // "Miss Harper" joined "Nell Harper": her mentions are Nell's.
  const merged = cast.mergeTitled();
  for (const mention of merged.size > 0 ? layouts.flatMap((l) => l.mentions.flat()) : []) {
    if (mention.person) mention.person = merged.get(mention.person) ?? mention.person;
  }
  const spans = layouts.map((layout) => attributeChapter(layout, cast));
  const speaking = new Set(spans.flat().map((s) => s.speaker));
  const characters: CastCharacter[] = cast.people
    .filter((p) => speaking.has(p.id))
    .map((p) => ({
      id: p.id,
      name: p.name,
      aliases: [...p.forms].filter((f) => f !== p.name),
      gender: p.gender,
    }));
  return { characters, chapters: spans };
}

/** Small text helpers shared by the assistant's tools (quotes, names, times). */

/**
 * A sentence cut to about `max` characters at a word boundary, ready to go inside double quotes
 * (its own double quotes become single ones: "'My dear,' said his lady").
 */
export function shorten(text: string, max = 180): string {
  const flat = text.replace(/\s+/g, ' ').replace(/"/g, "'").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[,;:]$/, '')}…`;
}

export const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A whole-word, case-insensitive pattern for a name ("Mr. Rochester" also matches "Mr Rochester"). */
export function entityPattern(name: string): RegExp {
  const parts = name
    .trim()
    .split(/\s+/)
    .map((p) => escapeRegex(p.replace(/\.$/, '')) + (p.endsWith('.') ? '\\.?' : ''));
  return new RegExp(`(?<![\\p{L}\\p{N}])${parts.join('\\s+')}(?![\\p{L}\\p{N}])`, 'iu');
}

export function titleCase(name: string): string {
  return name.replace(/(^|\s)(\p{Ll})/gu, (_m, space: string, ch: string) => space + ch.toUpperCase());
}

export function formatTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0
    ? `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`
    : `${m}:${String(sec).padStart(2, '0')}`;
}

/** Names joined as spoken: "A", "A and B", "A, B and C". */
export function spokenList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A stable small number from a string, to vary wording deterministically. */
export function pick(seed: string, n: number): number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i += 1) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return (h >>> 0) % n;
}

/**
 * The typographic cover of a book that came without one: a self-contained SVG drawn from the title
 * and the author, on a palette and with a motif derived from the title, so the same book always
 * gets the same cover. Served as is by the cover route (server/listening/covers.ts), drawn as a
 * JPEG for tags, downloads and feeds (server/exports/cover.ts).
 */
import { createHash } from 'node:crypto';
import { escapeXml, xmlSafe } from './xml';

const titleDigest = (title: string) => createHash('sha256').update(title.trim().toLowerCase()).digest();

/** A palette from the title's hash: a deep background, a lighter accent of a neighbouring hue, light ink. */
export function paletteFor(title: string): { background: string; accent: string; ink: string; muted: string } {
  const digest = titleDigest(title);
  const hue = digest.readUInt16BE(0) % 360;
  const shift = 25 + (digest[2]! % 50);
  const saturation = 35 + (digest[3]! % 30);
  const lightness = 22 + (digest[4]! % 12);
  return {
    background: `hsl(${hue}, ${saturation}%, ${lightness}%)`,
    accent: `hsl(${(hue + shift) % 360}, 70%, 68%)`,
    ink: '#fbf8f1',
    muted: `hsl(${hue}, 30%, 82%)`,
  };
}

const WIDTH = 600;
const HEIGHT = 900;

/** The drawings a cover may carry behind its title: the title's hash picks one. */
export const COVER_MOTIFS = ['sun', 'bands', 'rays', 'waves', 'grid'] as const;
export type CoverMotif = (typeof COVER_MOTIFS)[number];

export function motifFor(title: string): CoverMotif {
  const digest = titleDigest(title);
  return COVER_MOTIFS[digest[5]! % COVER_MOTIFS.length]!;
}

/** The motif's shapes in the accent colour, kept clear of the title's block (x 60-540, y 180-520). */
function motifShapes(motif: CoverMotif, accent: string, seed: number): string {
  switch (motif) {
    case 'sun':
      return `<circle cx="${420 + (seed % 120)}" cy="130" r="180" fill="${accent}" opacity="0.2"/>`;
    case 'bands':
      return [0, 1, 2]
        .map(
          (i) =>
            `<rect x="0" y="${600 + i * 56}" width="${WIDTH}" height="28" fill="${accent}" opacity="${0.32 - i * 0.09}"/>`,
        )
        .join('');
    case 'rays':
      return Array.from({ length: 9 }, (_, i) => {
        const angle = (Math.PI / 2) * (i / 8);
        const x = Math.round(WIDTH - Math.cos(angle) * 900);
        const y = Math.round(HEIGHT - Math.sin(angle) * 900);
        return `<line x1="${WIDTH}" y1="${HEIGHT}" x2="${x}" y2="${y}" stroke="${accent}" stroke-width="3" opacity="0.18"/>`;
      }).join('');
    case 'waves':
      return [0, 1, 2, 3]
        .map((i) => {
          const y = 640 + i * 36;
          return `<path d="M0 ${y} Q 150 ${y - 40} 300 ${y} T 600 ${y}" fill="none" stroke="${accent}" stroke-width="4" opacity="${0.4 - i * 0.08}"/>`;
        })
        .join('');
    case 'grid':
      return Array.from({ length: 5 }, (_, row) =>
        Array.from({ length: 5 }, (_, col) => {
          const on = ((seed >> ((row * 5 + col) % 8)) & 1) === 1;
          return `<rect x="${330 + col * 44}" y="${40 + row * 26}" width="36" height="18" fill="${accent}" opacity="${on ? 0.45 : 0.14}"/>`;
        }).join(''),
      ).join('');
  }
}

const MAX_LINE_CHARS = 16;
const MAX_LINES = 6;

/** The title in at most MAX_LINES lines of about MAX_LINE_CHARS characters, broken between words. */
export function titleLines(title: string): string[] {
  const words = title
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const lines: string[] = [];
  for (const word of words.length > 0 ? words : ['Untitled']) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= MAX_LINE_CHARS)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  if (lines.length <= MAX_LINES) return lines;
  const kept = lines.slice(0, MAX_LINES);
  kept[MAX_LINES - 1] = `${kept[MAX_LINES - 1]!.replace(/[\s.,;:!?-]+$/, '')}…`;
  return kept;
}

/**
 * The typographic cover: a self-contained SVG (no scripts, no external resources, no style
 * elements). The title's hash picks its palette and one of the motifs, so books on a shelf look
 * different from one another and each always looks the same.
 */
export function typographicCover(book: { title: string; author: string | null }): string {
  const name = xmlSafe(book.title).replace(/\s+/g, ' ').trim() || 'Untitled';
  const palette = paletteFor(book.title);
  const lines = titleLines(name);
  const longest = Math.max(...lines.map((l) => [...l].length));
  // Serif capitals average about 0.56 em; the title fills at most 480 of the 600 units.
  const size = Math.max(30, Math.min(76, Math.floor(480 / (longest * 0.56))));
  const lineHeight = Math.round(size * 1.15);
  const top = 300 - ((lines.length - 1) * lineHeight) / 2;
  const title = lines
    .map((line, i) => `<tspan x="60" y="${Math.round(top + i * lineHeight)}">${escapeXml(line)}</tspan>`)
    .join('');
  const author =
    book.author === null || book.author.trim() === ''
      ? ''
      : `<text x="60" y="800" font-family="Georgia, 'Times New Roman', serif" font-size="30" letter-spacing="2" fill="${palette.muted}">${escapeXml(book.author.trim().slice(0, 60))}</text>`;
  const label = escapeXml(`Cover of ${name}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}">`,
    `<title>${label}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="${palette.background}"/>`,
    `<rect x="0" y="0" width="24" height="${HEIGHT}" fill="${palette.accent}" opacity="0.85"/>`,
    motifShapes(motifFor(book.title), palette.accent, titleDigest(book.title)[6]!),
    `<rect x="60" y="${Math.round(top - size - 40)}" width="120" height="6" fill="${palette.accent}"/>`,
    `<text font-family="Georgia, 'Times New Roman', serif" font-size="${size}" font-weight="bold" fill="${palette.ink}">${title}</text>`,
    `<rect x="60" y="740" width="480" height="2" fill="${palette.muted}" opacity="0.5"/>`,
    author,
    '</svg>',
  ].join('\n');
}

/**
 * Covers for the stories, drawn like the server's typographic ones (server/listening/covers.ts):
 * each book its own colours and motif, from its id, with its title when a fixture named it. So a
 * shelf of stories shows different books, as the app does.
 */

const titles = new Map<string, string>();

/** Names the book a cover is drawn for (the fixtures call it for the books they make). */
export function nameCover(jobId: string, title: string): void {
  titles.set(jobId, title);
}

function hash(text: string): number {
  let value = 2166136261;
  for (const char of text) value = Math.imul(value ^ char.charCodeAt(0), 16777619) >>> 0;
  return value;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function lines(title: string): string[] {
  const out: string[] = [];
  for (const word of title.split(/\s+/).filter(Boolean)) {
    const last = out.at(-1);
    if (last !== undefined && last.length + word.length < 15) out[out.length - 1] = `${last} ${word}`;
    else out.push(word);
  }
  return out.slice(0, 5);
}

/** The SVG cover of `jobId` (400 x 600). */
export function mockCoverSvg(jobId: string): string {
  const seed = hash(jobId);
  const hue = seed % 360;
  const background = `hsl(${hue}, ${40 + (seed % 25)}%, ${24 + ((seed >> 8) % 10)}%)`;
  const accent = `hsl(${(hue + 30 + ((seed >> 4) % 40)) % 360}, 70%, 68%)`;
  const title = titles.get(jobId) ?? 'Untitled';
  const motif = [
    `<circle cx="330" cy="90" r="130" fill="${accent}" opacity="0.22"/>`,
    `<rect y="410" width="400" height="20" fill="${accent}" opacity="0.35"/><rect y="446" width="400" height="20" fill="${accent}" opacity="0.22"/>`,
    `<path d="M0 440 Q 100 410 200 440 T 400 440 M0 470 Q 100 440 200 470 T 400 470" fill="none" stroke="${accent}" stroke-width="4" opacity="0.35"/>`,
    `<path d="M400 600 L0 260 M400 600 L80 120 M400 600 L220 40 M400 600 L360 20" stroke="${accent}" stroke-width="3" opacity="0.25"/>`,
  ][(seed >> 12) % 4];
  const text = lines(title)
    .map((line, i) => `<tspan x="40" y="${200 + i * 44}">${escape(line)}</tspan>`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600" viewBox="0 0 400 600" role="img" aria-label="Cover of ${escape(title)}">` +
    `<rect width="400" height="600" fill="${background}"/>${motif}` +
    `<rect x="0" y="0" width="16" height="600" fill="${accent}" opacity="0.85"/>` +
    `<text fill="#fbf8f1" font-family="Georgia, serif" font-size="38" font-weight="bold">${text}</text></svg>`
  );
}

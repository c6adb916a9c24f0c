export interface PlaylistEntry {
  title: string;
  durationSeconds: number;
  url: string;
}

/** One line of text, no commas (some players split EXTINF at the last comma): "A, B\nC" → "A - B C". */
function sanitizeTitle(title: string): string {
  const clean = title
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/\s*,\s*/g, ' - ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean === '' ? 'Untitled' : clean;
}

/** An extended M3U playlist (one entry per chapter), newline-terminated. */
export function buildM3u(entries: PlaylistEntry[]): string {
  const lines = ['#EXTM3U'];
  for (const entry of entries) {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f\s]/.test(entry.url) || entry.url === '') {
      throw new Error(`Playlist URL must be a single line without spaces: ${JSON.stringify(entry.url)}`);
    }
    const seconds =
      Number.isFinite(entry.durationSeconds) && entry.durationSeconds >= 0 ? Math.round(entry.durationSeconds) : -1;
    lines.push(`#EXTINF:${seconds},${sanitizeTitle(entry.title)}`, entry.url);
  }
  return `${lines.join('\n')}\n`;
}

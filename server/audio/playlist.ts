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

/**
 * An extended M3U playlist (one entry per chapter), newline-terminated. Entries are URLs (no
 * spaces), or with `relativePaths` file names beside the playlist, which may hold spaces.
 */
export function buildM3u(entries: PlaylistEntry[], options: { relativePaths?: boolean } = {}): string {
  const lines = ['#EXTM3U'];
  // eslint-disable-next-line no-control-regex
  const forbidden = options.relativePaths === true ? /[\u0000-\u001f\u007f]/ : /[\u0000-\u001f\u007f\s]/;
  for (const entry of entries) {
    if (forbidden.test(entry.url) || entry.url === '') {
      throw new Error(`Playlist URL must be a single line without spaces: ${JSON.stringify(entry.url)}`);
    }
    const seconds =
      Number.isFinite(entry.durationSeconds) && entry.durationSeconds >= 0 ? Math.round(entry.durationSeconds) : -1;
    lines.push(`#EXTINF:${seconds},${sanitizeTitle(entry.title)}`, entry.url);
  }
  return `${lines.join('\n')}\n`;
}

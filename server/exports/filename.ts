/**
 * File names made from a book's or chapter's title, safe on every file system and in an HTTP
 * header: no path separators or characters Windows forbids, no control characters (line breaks
 * included), no leading dots (hidden files, `..`), no trailing dots or spaces, no reserved device
 * names, at most MAX_NAME_CHARS characters (never cutting an emoji in half).
 */
const MAX_NAME_CHARS = 120;
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** A title as a file name without extension; `fallback` when nothing usable is left. */
export function safeName(title: string, fallback = 'Audiobook'): string {
  let name = title
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\uFFFE\uFFFF]/gu, ' ')
    .replace(/[/\\:*?"<>|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '');
  name = [...name].slice(0, MAX_NAME_CHARS).join('');
  name = name.replace(/[.\s]+$/, '');
  if (name === '') return fallback;
  return RESERVED.test(name) ? `_${name}` : name;
}

/** The same name in printable ASCII, for clients that only read the plain `filename` parameter. */
function asciiName(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/_+/g, '_')
    .replace(/[%;]/g, '_')
    .trim();
  return ascii.replace(/^[._\s]+$/, '') === '' ? 'Audiobook' : ascii;
}

/**
 * `Content-Disposition: attachment` for `{title}.{ext}` (RFC 6266): the ASCII name in `filename`
 * and the exact UTF-8 name in `filename*`.
 */
export function contentDisposition(title: string, ext: string): string {
  const name = `${safeName(title)}.${ext}`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${asciiName(name)}"; filename*=UTF-8''${encoded}`;
}

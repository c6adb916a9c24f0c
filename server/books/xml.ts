/** Text inside XML: the covers' SVG, the EPUB's XHTML and package, the podcast feed's RSS. */

/**
 * Characters XML 1.0 cannot hold (control characters, U+FFFE/U+FFFF, lone surrogates) become
 * spaces; tabs and line breaks, which it can, mean nothing on a cover either.
 */
export function xmlSafe(text: string): string {
  // With the u flag a surrogate range matches only unpaired halves.
  return text.replace(/[\p{Cc}\uFFFE\uFFFF\uD800-\uDFFF]/gu, ' ');
}

/** Text content and attribute values: the five characters with a meaning in XML are escaped. */
export function escapeXml(text: string): string {
  return xmlSafe(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * Front matter: the pages before a book's text that nobody wants read aloud first (cover, title
 * page, copyright, contents, dedication, epigraph, "also by"). The preview offers such chapters
 * unticked; the reader may still choose them.
 */

const FRONT_MATTER_TITLES = [
  /^cover( page)?$/,
  /^(half[- ])?title( page)?$/,
  /^copyright( page| notice)?$/,
  /^(table of )?contents$/,
  /^toc$/,
  /^dedication$/,
  /^epigraph$/,
  /^frontispiece$/,
  /^imprint$/,
  /^(also|other books) by\b/,
  /^praise for\b/,
  /^about (this|the) (e-?book|edition)$/,
];

/** Whether a chapter titled so is front matter ("Copyright", "Table of Contents", "Dedication"...). */
export function isFrontMatterTitle(title: string): boolean {
  const plain = title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return FRONT_MATTER_TITLES.some((pattern) => pattern.test(plain));
}

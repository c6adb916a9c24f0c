import { describe, expect, it } from 'vitest';
import { extractArticle } from './extract';
import { IngestError } from './errors';

const para = (n: number) =>
  `This is paragraph number ${n} of the article. It has enough words to look like real prose,   with   extra
  spaces and a line break inside it that should collapse into single spaces when read aloud.`;

const ARTICLE = `<!doctype html>
<html><head><title>The Lighthouse Keeper | Example Magazine</title>
<meta property="og:title" content="The Lighthouse Keeper">
<script>var tracking = "should never be read";</script><style>p { color: red }</style></head>
<body>
  <nav><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li><li><a href="/shop">Shop</a></li></ul></nav>
  <header><h1>Example Magazine</h1></header>
  <main><article>
    <h1>The Lighthouse Keeper</h1>
    <p>${para(1)}</p>
    <p>${para(2)}</p>
    <h2>The storm</h2>
    <p>${para(3)}<br>A line after a break.</p>
    <blockquote><p>${para(4)}</p></blockquote>
    <ul><li>First item in a list about the keeper and his lamp.</li><li>Second item in the same list, also long.</li></ul>
    <p>${para(5)}</p>
  </article></main>
  <aside class="sidebar">Subscribe to our newsletter! Advertisement.</aside>
  <footer>Copyright 2024 Example Magazine. All rights reserved.</footer>
</body></html>`;

function failure(fn: () => unknown): IngestError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(IngestError);
    return err as IngestError;
  }
  throw new Error('expected a failure');
}

describe('extractArticle', () => {
  it('extracts the article text with paragraph breaks, without navigation, scripts or footers', () => {
    const t0 = performance.now();
    const { title, text } = extractArticle(ARTICLE, 'https://www.example.com/stories/lighthouse');
    const ms = performance.now() - t0;
    expect(title).toBe('The Lighthouse Keeper');
    const paragraphs = text.split('\n\n');
    expect(paragraphs[0]).toMatch(/^This is paragraph number 1 of the article\./);
    expect(text).toContain('The storm');
    expect(text).toContain('First item in a list');
    expect(text).toContain('paragraph number 5');
    expect(text).not.toMatch(/tracking|color: red|All rights reserved|Subscribe/);
    expect(text).not.toMatch(/ {2}|\t/);
    expect(text).toMatch(/read aloud\.\nA line after a break\./);
    expect(text).not.toMatch(/\n{3}/);
    expect(paragraphs.length).toBeGreaterThanOrEqual(7);
    console.log(`extractArticle on a ${ARTICLE.length}-char page: ${ms.toFixed(1)} ms`);
  });

  it('falls back to the <title> and then to the host for the title', () => {
    const noHeading = `<html><head><title>Quiet Page</title></head><body><div><p>${para(1)}</p><p>${para(2)}</p></div></body></html>`;
    expect(extractArticle(noHeading, 'https://quiet.example/x').title).toBe('Quiet Page');
    const untitled = `<html><body><div><p>${para(1)}</p><p>${para(2)}</p></div></body></html>`;
    expect(extractArticle(untitled, 'https://www.untitled.example/x').title).toBe('untitled.example');
  });

  it('refuses a page with no readable article', () => {
    for (const html of [
      '<html><head><title>Login</title></head><body><form><input name="u"><button>Sign in</button></form></body></html>',
      '<html><body><p>Too short to narrate.</p></body></html>',
      '',
      'not html at all <<<',
    ]) {
      const err = failure(() => extractArticle(html, 'https://example.com/'));
      expect(err.kind).toBe('invalid');
      expect(err.message).toBe('No readable article was found on that page');
    }
  });

  it('passes plain-text pages through', () => {
    const plain = `Title line\r\n\r\n${'Words of a plain text book. '.repeat(10)}\r\n`;
    const result = extractArticle(plain, 'https://gutenberg.example/files/1342.txt', 'text/plain');
    expect(result.text).toBe(`Title line\n\n${'Words of a plain text book. '.repeat(10).trim()}`);
    expect(result.title).toBe('gutenberg.example');
    expect(failure(() => extractArticle('short', 'https://a.example/', 'text/plain')).kind).toBe('invalid');
  });

  it('extracts a large page in reasonable time', () => {
    const big = `<html><head><title>Big</title></head><body><article>${Array.from({ length: 2000 }, (_, i) => `<p>${para(i)}</p>`).join('\n')}</article></body></html>`;
    const t0 = performance.now();
    const { text } = extractArticle(big, 'https://big.example/');
    const ms = performance.now() - t0;
    expect(text.split('\n\n')).toHaveLength(2000);
    expect(ms).toBeLessThan(10_000);
    console.log(`extractArticle on a ${(big.length / 1e6).toFixed(2)} MB page: ${Math.round(ms)} ms`);
  });
});

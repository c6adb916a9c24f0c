// @vitest-environment node
// The repository stands alone: whoever clones it can read every document a file cites. Nothing
// may point at the section numbers of a specification or at notes kept outside the repository,
// and every Markdown document a file names (with its #anchor, when it gives one) must exist.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Generated code and the lockfile are written by tools, not by us. */
const notOurs = [/^node_modules\//, /(^|\/)gen\//, /^package-lock\.json$/, /^public\/mockServiceWorker\.js$/];

function trackedTextFiles(): { file: string; text: string }[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  return files
    .filter((file) => !notOurs.some((pattern) => pattern.test(file)) && existsSync(path.join(root, file)))
    .map((file) => ({ file, buffer: readFileSync(path.join(root, file)) }))
    .filter(({ buffer }) => !buffer.includes(0))
    .map(({ file, buffer }) => ({ file, text: buffer.toString('utf8') }));
}

/**
 * Citations of documents a clone does not have: documents kept outside the repository while it was
 * built (a specification cited by its numbered sections, a reference folder one level above the
 * repository, one brief per task). What of them still matters is written in docs/ in this
 * project's own words, so a file cites docs/ and never them, nor any path that climbs out of the
 * repository (tested below). The names are built from parts so this file does not cite them itself.
 */
const outsideCitations: { name: string; pattern: RegExp }[] = [
  { name: 'a numbered section of a specification', pattern: /\bspec(ification)?('s)?\s+(sections?|§)\s*\d/i },
  { name: 'a numbered section of a specification', pattern: /\bsections?\s+\d+(\s+and\s+\d+)?\s+of\s+the\s+spec/i },
  { name: 'a section sign', pattern: /\bspec\s*§/i },
  ...[
    ['api', 'facts'],
    ['stack', 'notes'],
    ['design', 'guide'],
    ['product', 'spec'],
  ].map((parts) => ({
    name: `the outside note "${parts.join('-')}"`,
    pattern: new RegExp(`\\b${parts.join('[-_ ]')}\\b`, 'i'),
  })),
  // The wire protocol's page is docs/voice-protocol.md; a bare name meant the outside copy.
  {
    name: 'the wire protocol without its docs/ folder',
    pattern: new RegExp(`(?<![/[(])${['voice', 'protocol'].join('-')}\\.md`),
  },
  {
    name: 'the shared reference folder, one level above the repository',
    pattern: new RegExp(['\\.\\.', 'shared'].join('/') + '\\b'),
  },
  {
    name: 'the shared reference folder',
    pattern: new RegExp(`(^|[^\\w/.-])${['shared', 'reference'].join('/')}\\b`),
  },
  { name: "the machine's folder of task briefs", pattern: new RegExp(`\\b${['work', 'briefs'].join('/')}\\b`) },
];

/**
 * Relative paths in prose (Markdown, and comments in code) that climb above the repository's root:
 * `../` more times than the file is deep. Code is left out: a test may well build such a path on
 * purpose (a path-traversal attempt).
 */
function pathsLeavingTheRepository(file: string, text: string): string[] {
  const depth = file.split('/').length - 1;
  const prose = file.endsWith('.md');
  return text.split('\n').flatMap((line, index) => {
    if (!prose && !/^\s*(\/\/|\/?\*)/.test(line)) return [];
    return [...line.matchAll(/(?<![\w.])((?:\.\.\/)+)[\w.-]/g)]
      .filter((match) => (match[1] ?? '').length / 3 > depth)
      .map((match) => `${file}:${index + 1} names ${match[0]}…, above the repository: ${line.trim()}`);
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(slug(heading[1] ?? ''));
  }
  return anchors;
}

/**
 * The documents a file names: `docs/<name>.md` anywhere (from the root, or with ../ from the
 * file's folder), and the targets of Markdown links in .md files (from the file's folder), each
 * with its #anchor when it gives one.
 */
function namedDocuments(file: string, text: string): { target: string; anchor?: string; index: number }[] {
  const found: { target: string; anchor?: string; index: number }[] = [];
  for (const match of text.matchAll(/(?<![\w.:/-])((?:\.\.\/)*docs\/[\w./-]*?\.md)(?:#([\w-]+))?/g)) {
    const [, named = '', anchor] = match;
    const target = named.startsWith('../') ? path.normalize(path.join(path.dirname(file), named)) : named;
    found.push({ target, anchor, index: match.index });
  }
  if (file.endsWith('.md')) {
    for (const match of text.matchAll(/\]\((?![a-z]+:)([^)\s#]+\.md)(?:#([\w-]+))?\)/g)) {
      const [, named = '', anchor] = match;
      found.push({ target: path.normalize(path.join(path.dirname(file), named)), anchor, index: match.index });
    }
  }
  return found;
}

describe('the repository stands alone', () => {
  const files = trackedTextFiles();

  it('recognises the citations it forbids, and the anchors GitHub makes', () => {
    const cites = (line: string) => outsideCitations.some(({ pattern }) => pattern.test(line));
    const samples = [
      'Spec ' + 'section 4: badges',
      '(spec ' + 'sections 3 and 9)',
      "the spec's " + 'section 9 defect',
      'section 2 ' + 'of the spec',
      'see api-' + 'facts.md',
      'stack' + '-notes',
      '..' + '/shared/reference',
      'shared/' + 'reference/voice.md',
      'see voice-' + 'protocol.md',
    ];
    expect(samples.filter((line) => !cites(line))).toEqual([]);
    expect([
      '(docs/voice-protocol.md)',
      '[the protocol](voice-protocol.md)',
      'a specification of the format',
      'section headings',
      'shared/ui',
    ]).toSatisfy((lines: string[]) => !lines.some(cites));
    expect(['`npm install` in CI', 'Every error is `{detail, message}`', 'Node 20.19', 'Jobs list'].map(slug)).toEqual([
      'npm-install-in-ci',
      'every-error-is-detail-message',
      'node-2019',
      'jobs-list',
    ]);
  });

  it('finds the documents a file names', () => {
    const named = (file: string, text: string) =>
      namedDocuments(file, text).map(({ target, anchor }) => `${target}#${anchor ?? ''}`);
    expect(named('src/a.ts', '// see docs/product.md#library and docs/api.md, not notes.md or theme.radii.md')).toEqual(
      ['docs/product.md#library', 'docs/api.md#'],
    );
    expect(
      named('docs/' + 'a.md', 'See [api](api.md#deleting), [site](https://x.org/a.md) and [root](../README.md).'),
    ).toEqual(['docs/api.md#deleting', 'README.md#']);
  });

  it('reads the files it checks', () => {
    expect(files.map(({ file }) => file)).toEqual(
      expect.arrayContaining(['README.md', 'docs/product.md', 'docs/architecture.md']),
    );
  });

  it('never cites a specification by section number or a document kept outside the repository', () => {
    const found = files.flatMap(({ file, text }) =>
      text
        .split('\n')
        .flatMap((line, index) =>
          outsideCitations
            .filter(({ pattern }) => pattern.test(line))
            .map(({ name }) => `${file}:${index + 1} cites ${name}: ${line.trim()}`),
        ),
    );
    expect(found).toEqual([]);
  });

  it('finds the relative paths of prose that climb out of the repository', () => {
    expect(pathsLeavingTheRepository('README.md', 'See ../' + 'notes/a.md and docs/api.md')).toHaveLength(1);
    expect(pathsLeavingTheRepository('docs/' + 'a.md', 'See [root](../README.md).')).toEqual([]);
    expect(pathsLeavingTheRepository('server/a.ts', '// read ../../../' + 'x/y.md first')).toHaveLength(1);
    expect(pathsLeavingTheRepository('server/a.ts', "const evil = '../../../etc/passwd';")).toEqual([]);
  });

  it('never points out of the repository with a relative path', () => {
    expect(files.flatMap(({ file, text }) => pathsLeavingTheRepository(file, text))).toEqual([]);
  });

  it('names only Markdown documents that exist, and anchors that their headings make', () => {
    const anchors = new Map<string, Set<string>>();
    const broken: string[] = [];
    for (const { file, text } of files) {
      for (const { target, anchor, index } of namedDocuments(file, text)) {
        const resolved = existsSync(path.join(root, target)) ? target : undefined;
        const line = text.slice(0, index).split('\n').length;
        if (resolved === undefined) {
          broken.push(`${file}:${line} names ${target}, which is not in the repository`);
          continue;
        }
        if (anchor === undefined) continue;
        if (!anchors.has(resolved)) anchors.set(resolved, anchorsOf(readFileSync(path.join(root, resolved), 'utf8')));
        if (!anchors.get(resolved)?.has(anchor))
          broken.push(`${file}:${line} names ${target}#${anchor}, a heading ${resolved} does not have`);
      }
    }
    expect(broken).toEqual([]);
  });
});

import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { contentDisposition, safeName } from './filename';
import { FfmpegMissingError, locateFfmpeg } from './ffmpeg';
import { ffmetadata } from './download-formats';

describe('safeName', () => {
  it('keeps an ordinary title as it is', () => {
    expect(safeName('The Lighthouse Keeper')).toBe('The Lighthouse Keeper');
    expect(safeName('Café — Ünïcode 🐋')).toBe('Café — Ünïcode 🐋');
  });

  it('drops path separators, quotes, line breaks and leading dots of a hostile title', () => {
    const name = safeName('"Quoted" ../../etc/passwd\nsecond\tline\r\u0000');
    expect(name).toBe('Quoted .. .. etc passwd second line');
    expect(safeName('../.hidden')).toBe('hidden');
    expect(safeName('...')).toBe('Audiobook');
    expect(safeName('CON')).toBe('_CON');
  });

  it('cuts a long title at 120 characters without splitting an emoji', () => {
    const name = safeName(`${'🐋'.repeat(200)}`);
    expect([...name]).toHaveLength(120);
    expect(name).toBe('🐋'.repeat(120));
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII filename and the exact UTF-8 one', () => {
    expect(contentDisposition('Café 🐋 "x"', 'm4b')).toBe(
      `attachment; filename="Cafe _ x.m4b"; filename*=UTF-8''Caf%C3%A9%20%F0%9F%90%8B%20x.m4b`,
    );
  });
});

describe('ffmetadata', () => {
  it('escapes what FFMETADATA gives a meaning and keeps titles on one line', () => {
    const text = ffmetadata({
      id: 'b',
      userId: 'u',
      title: 'A=B; #1 \\ two\nlines',
      author: null,
      version: '',
      audioKey: 'k',
      duration: 3,
      chapters: [{ order: 1, title: 'One', start: 0, duration: 1.2345, fileKey: 'k' }],
      cover: null,
    });
    expect(text).toContain('title=A\\=B\\; \\#1 \\\\ two lines\n');
    expect(text).toContain('[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1235\ntitle=One\n');
  });
});

describe('locateFfmpeg', () => {
  it('finds the static ffmpeg of the npm package, which runs', () => {
    const ffmpeg = locateFfmpeg('bundled');
    expect(ffmpeg.kind).toBe('bundled');
    expect(execFileSync(ffmpeg.path, ['-hide_banner', '-encoders']).toString()).toMatch(/\baac\b/);
  });

  it('says what to install when EXPORT_FFMPEG=native finds none on PATH', () => {
    expect(() => locateFfmpeg('native', '/nonexistent')).toThrow(FfmpegMissingError);
    expect(() => locateFfmpeg('native', '/nonexistent')).toThrow('sudo apt-get install -y ffmpeg');
  });
});

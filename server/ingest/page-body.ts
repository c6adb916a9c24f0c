/**
 * A fetched page's body: read while it streams (decompressed, stopped as soon as it passes the
 * cap) and decoded by the charset it declares, latin-1 labels read as windows-1252 as browsers do.
 */
import type http from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { IngestError } from './errors';

export function parseContentType(header: string | undefined): { mime: string; charset: string | null } {
  if (header === undefined || header.trim() === '') return { mime: '', charset: null };
  const [type = '', ...params] = header.split(';');
  let charset: string | null = null;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p);
    if (m?.[1]) charset = m[1].toLowerCase();
  }
  return { mime: type.trim().toLowerCase(), charset };
}

// 0x80-0x9F of windows-1252 (Node 20's TextDecoder treats windows-1252 as ISO-8859-1 there).
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d, 0x017d,
  0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x9d,
  0x017e, 0x0178,
];

export function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const codes = Array.from(bytes.subarray(i, i + 8192), (b) =>
      b >= 0x80 && b <= 0x9f ? (CP1252_HIGH[b - 0x80] ?? b) : b,
    );
    out += String.fromCharCode(...codes);
  }
  return out;
}

export function decoderFor(label: string | null): { decode(input: Uint8Array): string } {
  // WHATWG: latin1/ISO-8859-1/ASCII labels mean windows-1252 (Node's fast path would not map 0x80-0x9F).
  const name =
    label !== null &&
    /^(?:latin1|l1|iso-?8859-1|iso_8859-1(?::1987)?|us-ascii|ascii|cp1252|cp819|ibm819|x-cp1252)$/i.test(label)
      ? 'windows-1252'
      : label;
  if (name === 'windows-1252') return { decode: decodeWindows1252 };
  try {
    return new TextDecoder(name ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

export function readBody(res: http.IncomingMessage, maxBytes: number, tooLarge: () => IngestError): Promise<Buffer> {
  const encoding = String(res.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  let stream: Readable = res;
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
  else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
  else if (encoding === 'br') stream = res.pipe(zlib.createBrotliDecompress());

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const fail = (err: unknown) => {
      if (done) return;
      done = true;
      res.destroy();
      if (stream !== res) stream.destroy();
      reject(err);
    };
    stream.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        fail(tooLarge()); // stop downloading as soon as the cap is passed
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks, total));
    });
    stream.on('error', fail);
    res.on('error', fail);
    res.on('aborted', () => fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
  });
}

export function looksLikeHtml(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body|title|p|div)[\s>]/.test(head);
}

import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FileStorage } from '../storage/types';

export type RangeResult =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * Interprets a Range header (RFC 9110 §14) for a representation of `size` bytes.
 * - `bytes=a-b` (b clamped to size-1), `bytes=a-`, `bytes=-n` (last n bytes; n > size → whole file).
 * - A first position at or beyond the end, or `-0`, is unsatisfiable (also any range of an empty file).
 * - Anything malformed, another unit, or a descending range is ignored → full (as the RFC allows).
 * - Multiple ranges are answered with the full representation (200): ignoring Range is always
 *   permitted, and browsers (Safari included) only ever ask for one range.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: 'full' };
  const match = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!match) return { kind: 'full' };
  const spec = match[1]!.trim();
  if (spec.includes(',')) return { kind: 'full' };
  const parts = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
  if (!parts) return { kind: 'full' };
  const first = parts[1]!;
  const last = parts[2]!;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (!Number.isSafeInteger(suffix)) return { kind: 'full' };
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (!Number.isSafeInteger(start)) return { kind: 'unsatisfiable' };
  let end = size - 1;
  if (last !== '') {
    const requestedEnd = Number(last);
    if (Number.isSafeInteger(requestedEnd)) {
      if (requestedEnd < start) return { kind: 'full' }; // invalid range-spec → ignore the header
      end = Math.min(requestedEnd, size - 1);
    }
  }
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}

/**
 * Sends a stored file honouring a Range header: 200 (whole file), 206 (one range) or 416.
 * 404 with the standard error body if the key does not exist. Browsers cache privately only:
 * media URLs are signed and short-lived.
 */
export function sendMedia(
  reply: FastifyReply,
  storage: FileStorage,
  key: string,
  rangeHeader: string | undefined,
  contentType = 'audio/mpeg',
): Promise<FastifyReply> {
  return sendWithPrefix(reply, storage, key, new Uint8Array(0), rangeHeader, contentType);
}

/**
 * `bytes=a-b` or `bytes=a-` wholly past the first `prefixLength` bytes, as a range of the stored
 * bytes (`end` undefined: to the end); null for any other header, answered by the general path.
 */
export function rangeIntoStored(
  header: string | undefined,
  prefixLength: number,
): { start: number; end?: number } | null {
  const parts = header === undefined ? null : /^\s*bytes\s*=\s*(\d+)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!parts) return null;
  const start = Number(parts[1]);
  const end = parts[2] === '' ? undefined : Number(parts[2]);
  if (!Number.isSafeInteger(start) || start < prefixLength) return null;
  if (end !== undefined && (!Number.isSafeInteger(end) || end < start)) return null;
  return end === undefined ? { start: start - prefixLength } : { start: start - prefixLength, end: end - prefixLength };
}

function notFound(reply: FastifyReply): FastifyReply {
  const detail = 'Audio file not found';
  return reply.code(404).type('application/json; charset=utf-8').send({ detail, message: detail });
}

/**
 * Bytes sent in front of a stored file (an ID3 tag made for the answer) that are known by their
 * length before their bytes are needed: a range wholly past them never makes them.
 */
export interface LazyPrefix {
  length: number;
  bytes(): Promise<Uint8Array>;
}

/**
 * A stored file served with `prefix` in front of its stored bytes (an ID3 tag made for this
 * answer): Range counts over the bytes as sent, prefix included. 404, 206 and 416 as sendMedia.
 * A lazy prefix's bytes are fetched only when the answer includes some of them (then their real
 * length counts); a player's range requests into the audio never read them.
 */
export async function sendWithPrefix(
  reply: FastifyReply,
  storage: FileStorage,
  key: string,
  prefix: Uint8Array | LazyPrefix,
  rangeHeader: string | undefined,
  contentType = 'audio/mpeg',
): Promise<FastifyReply> {
  const into = rangeIntoStored(rangeHeader, prefix.length);
  if (into !== null) {
    // A player's range into the stored bytes: read with the file's size in one call to the store.
    const read = await storage.readSlice(key, into.start, into.end);
    if (read === null) return notFound(reply);
    if (read.slice !== null) {
      const { start, end, stream } = read.slice;
      const offset = prefix.length;
      return reply
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'private, max-age=300')
        .type(contentType)
        .header('content-length', String(end - start + 1))
        .code(206)
        .header('content-range', `bytes ${offset + start}-${offset + end}/${offset + read.size}`)
        .send(stream);
    }
    // Past the end: answered below, with the size (416).
  }
  const info = await storage.stat(key);
  if (info === null) return notFound(reply);
  let head: Uint8Array | null = prefix instanceof Uint8Array ? prefix : null;
  let range = parseRange(rangeHeader, prefix.length + info.size);
  const pastPrefix = range.kind === 'unsatisfiable' || (range.kind === 'partial' && range.start >= prefix.length);
  if (head === null && !pastPrefix) {
    head = await (prefix as LazyPrefix).bytes();
    range = parseRange(rangeHeader, head.length + info.size);
  }
  const headLength = head?.length ?? prefix.length;
  const size = headLength + info.size;
  reply.header('accept-ranges', 'bytes').header('cache-control', 'private, max-age=300');
  if (range.kind === 'unsatisfiable') {
    const detail = 'Requested range not satisfiable';
    return reply
      .code(416)
      .header('content-range', `bytes */${size}`)
      .type('application/json; charset=utf-8')
      .send({ detail, message: detail });
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  reply.type(contentType).header('content-length', String(end - start + 1));
  if (range.kind === 'partial') reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  else reply.code(200);
  if (headLength === 0) {
    // The stored bytes alone: their stream is sent as it is.
    return reply.send(size === 0 ? '' : storage.read(key, range.kind === 'partial' ? { start, end } : undefined));
  }
  async function* bytes(): AsyncIterable<Uint8Array> {
    if (start < headLength) yield head!.subarray(start, Math.min(end + 1, headLength));
    if (end >= headLength && info!.size > 0) {
      yield* storage.read(key, {
        start: Math.max(0, start - headLength),
        end: end - headLength,
      }) as AsyncIterable<Uint8Array>;
    }
  }
  return reply.send(Readable.from(bytes()));
}

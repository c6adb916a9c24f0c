import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Agent, request } from 'undici';
import {
  assertValidKey,
  serialisedWriter,
  sliceByStat,
  StorageUnavailableError,
  writeThrough,
  type ByteRange,
  type FileStorage,
  type StorageWriter,
  type StoredSlice,
} from './types';

/** Parts of a multipart upload: S3's minimum, so a writer holds at most PART_SIZE * QUEUE_SIZE in memory. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;
/**
 * Ranged reads go to a presigned URL of the object, kept for a while: signing a request through the
 * SDK's middleware costs more than the read itself (2.3 ms of CPU for a 64 KB range against 0.8).
 * A URL is signed for READ_URL_SECONDS and reused for READ_URL_REUSE_MS, for at most
 * MAX_READ_URLS objects; a 403 (credentials rotated early) signs it again.
 */
const READ_URL_SECONDS = 15 * 60;
const READ_URL_REUSE_MS = 5 * 60_000;
const MAX_READ_URLS = 20_000;

export interface S3StorageOptions {
  bucket: string;
  /** Key prefix inside the bucket, without leading or trailing slash ('' for none). */
  prefix: string;
  /** Custom endpoint (MinIO, R2, Garage, a local test server); unset for AWS S3. */
  endpoint?: string;
  region?: string;
  forcePathStyle?: boolean;
  /** Hand clients presigned GET URLs instead of serving the bytes through this server. */
  presign?: boolean;
  /** Credentials; unset uses the AWS SDK's default chain (environment, shared files, instance roles). */
  credentials?: S3ClientConfig['credentials'];
  /** Request attempts before an operation gives up (SDK default 3). */
  maxAttempts?: number;
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  return name === 'NotFound' || name === 'NoSuchKey' || statusOf(error) === 404;
}

/** Network failures, timeouts and 5xx answers mean "the store is down", not "the request is wrong". */
function unavailable(error: unknown): unknown {
  if (error instanceof StorageUnavailableError) return error;
  const status = statusOf(error);
  if (status !== undefined && status < 500) return error;
  return new StorageUnavailableError(error);
}

/**
 * FileStorage on an S3-compatible object store (AWS S3, MinIO, Cloudflare R2, Garage). Writes
 * stream through a multipart upload (@aws-sdk/lib-storage) and the object appears only when the
 * upload completes, so a reader never sees a partial file and an aborted write leaves nothing.
 */
export class S3FileStorage implements FileStorage {
  readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;
  private readonly presign: boolean;
  private readonly maxAttempts: number;
  private readonly readUrls = new Map<string, { url: string; until: number }>();
  private readonly http = new Agent({ connectTimeout: 3000, headersTimeout: 30_000, bodyTimeout: 30_000 });

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.presign = options.presign ?? false;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.client = new S3Client({
      ...(options.endpoint !== undefined && { endpoint: options.endpoint }),
      region: options.region ?? 'us-east-1',
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.credentials !== undefined && { credentials: options.credentials }),
      maxAttempts: this.maxAttempts,
      // A store that does not answer is reported within seconds, not after the OS gives up.
      requestHandler: { connectionTimeout: 3000, requestTimeout: 30_000 },
      // Checksums only where the S3 API requires them: an object's CRC is not computed on every
      // write nor checked on every ranged read (a listener's every 64 KB), which cost a busy API
      // a few percent of its CPU, and S3-compatible stores that predate them keep working.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    assertValidKey(key);
    return this.prefix === '' ? key : `${this.prefix}/${key}`;
  }

  async write(key: string, data: Uint8Array | AsyncIterable<Uint8Array>): Promise<{ size: number }> {
    return writeThrough(this, key, data);
  }

  async createWriter(key: string): Promise<StorageWriter> {
    const objectKey = this.objectKey(key);
    const body = new PassThrough({ highWaterMark: 256 * 1024 });
    const controller = new AbortController();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: objectKey, Body: body },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
      abortController: controller,
    });
    let failure: unknown = null;
    const done = upload.done().catch((error: unknown) => {
      failure ??= controller.signal.aborted ? new Error(`Writer for ${key} was aborted`) : unavailable(error);
      body.destroy();
      throw failure;
    });
    done.catch(() => undefined);
    return serialisedWriter(key, {
      writeChunk: async (chunk) => {
        if (failure) throw failure;
        if (!body.write(chunk)) await Promise.race([once(body, 'drain'), done]);
      },
      finish: async () => {
        if (failure) throw failure;
        body.end();
        await done;
      },
      discard: async () => {
        controller.abort();
        body.destroy();
        await done.catch(() => undefined);
      },
    });
  }

  read(key: string, range?: ByteRange): NodeJS.ReadableStream {
    if (
      range &&
      (!Number.isSafeInteger(range.start) ||
        !Number.isSafeInteger(range.end) ||
        range.start < 0 ||
        range.end < range.start)
    ) {
      throw new RangeError(`Invalid byte range ${range.start}-${range.end}`);
    }
    const out = new PassThrough();
    (async () => {
      const result = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          ...(range && { Range: `bytes=${range.start}-${range.end}` }),
        }),
      );
      const stream = result.Body as Readable;
      stream.on('error', (error) => out.destroy(unavailable(error) as Error));
      stream.pipe(out);
    })().catch((error: unknown) => {
      out.destroy(
        isMissing(error)
          ? Object.assign(new Error(`No file under key ${key}`), { code: 'ENOENT' })
          : (unavailable(error) as Error),
      );
    });
    return out;
  }

  /**
   * One ranged GET: S3 answers the bytes with the object's size (Content-Range), so a player's
   * range read costs one request, not a HEAD and a GET. A range past the end (416) asks the size.
   */
  async readSlice(key: string, start: number, end?: number): Promise<StoredSlice | null> {
    if (!Number.isSafeInteger(start) || start < 0 || (end !== undefined && (!Number.isSafeInteger(end) || end < start)))
      throw new RangeError(`Invalid byte range ${start}-${end ?? ''}`);
    const objectKey = this.objectKey(key);
    for (let attempt = 1; ; attempt += 1) {
      const lastTry = attempt >= this.maxAttempts;
      let res;
      try {
        const url = await this.readUrl(objectKey, attempt > 1);
        res = await request(url, { headers: { range: `bytes=${start}-${end ?? ''}` }, dispatcher: this.http });
      } catch (error) {
        if (lastTry) throw unavailable(error);
        continue;
      }
      const status = res.statusCode;
      if (status === 206 || status === 200) {
        const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(res.headers['content-range'] ?? ''));
        if (status === 200 || range === null) {
          // A store that ignored the range (it sent the whole object).
          res.body.destroy();
          return sliceByStat(this, key, start, end);
        }
        const out = new PassThrough();
        res.body.on('error', (error) => out.destroy(unavailable(error) as Error));
        res.body.pipe(out);
        return { size: Number(range[3]), slice: { start: Number(range[1]), end: Number(range[2]), stream: out } };
      }
      await res.body.dump();
      if (status === 404) return null;
      if (status === 416) {
        const info = await this.stat(key);
        return info === null ? null : { size: info.size, slice: null };
      }
      // 403: signed with credentials that have since rotated; 5xx: the store's trouble. Signed again.
      if ((status === 403 || status >= 500) && !lastTry) continue;
      throw status >= 500
        ? new StorageUnavailableError(new Error(`The store answered ${status}`))
        : new Error(`The store answered ${status} to a read of ${key}`);
    }
  }

  /** A presigned GET URL of the object, kept READ_URL_REUSE_MS (`fresh`: signed again). */
  private async readUrl(objectKey: string, fresh: boolean): Promise<string> {
    const kept = this.readUrls.get(objectKey);
    if (!fresh && kept !== undefined && kept.until > Date.now()) return kept.url;
    const url = await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: objectKey }), {
      expiresIn: READ_URL_SECONDS,
    });
    this.readUrls.delete(objectKey);
    this.readUrls.set(objectKey, { url, until: Date.now() + READ_URL_REUSE_MS });
    if (this.readUrls.size > MAX_READ_URLS) this.readUrls.delete(this.readUrls.keys().next().value!);
    return url;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const objectKey = this.objectKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw unavailable(error);
    }
  }

  async delete(key: string): Promise<void> {
    const objectKey = this.objectKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey }));
    } catch (error) {
      if (isMissing(error)) return;
      throw unavailable(error);
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    // Same rule as the local adapter: a valid key, or a valid key followed by "/".
    assertValidKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
    const full = this.prefix === '' ? prefix : `${this.prefix}/${prefix}`;
    try {
      let token: string | undefined;
      do {
        const page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: full,
            ...(token !== undefined && { ContinuationToken: token }),
          }),
        );
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key !== undefined ? [{ Key: o.Key }] : []));
        if (keys.length > 0) {
          await this.client.send(
            new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
          );
        }
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
    } catch (error) {
      throw unavailable(error);
    }
  }

  async directUrl(key: string, expiresInSeconds: number): Promise<string | null> {
    const objectKey = this.objectKey(key);
    if (!this.presign) return null;
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: objectKey }), {
      expiresIn: expiresInSeconds,
    });
  }

  close(): void {
    this.client.destroy();
    void this.http.close();
  }
}

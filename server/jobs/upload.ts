/**
 * Storing an uploaded book (POST /files): its file is read (text, chapters, title, author, cover),
 * the bytes it will keep are reserved against the uploader's storage quota with the hourly upload
 * limit counted, and only then is anything written: the text, and for a structured format what was
 * read of the book and its cover, beside it.
 */
import type { StoredDocumentInfo } from '../ingest/document';
import { documentReader } from '../ingest/reader';
import type { StorageHealth } from '../storage/health';
import type { FileStorage } from '../storage/types';
import type { Quotas } from './quotas';
import type { JobRepository } from './repository';
import { newUploadKey, uploadCoverKey, uploadInfoKey } from './storage-keys';

export interface UploadDeps {
  repo: JobRepository;
  storage: FileStorage;
  quotas: Quotas;
  storageHealth?: StorageHealth | undefined;
}

/** The files an upload keeps, by key. */
async function readUpload(bytes: Uint8Array, filename: string, fileKey: string): Promise<Map<string, Uint8Array>> {
  const doc = await documentReader().readUpload(bytes, filename);
  const files = new Map<string, Uint8Array>([[fileKey, Buffer.from(doc.text, 'utf8')]]);
  if (doc.format === 'txt') return files;
  const info: StoredDocumentInfo = { format: doc.format, title: doc.title, author: doc.author, chapters: doc.chapters };
  if (doc.cover !== undefined) {
    files.set(uploadCoverKey(fileKey), doc.cover.bytes);
    info.cover = { key: uploadCoverKey(fileKey), content_type: doc.cover.contentType };
  }
  files.set(uploadInfoKey(fileKey), Buffer.from(JSON.stringify(info), 'utf8'));
  return files;
}

/** Validates, reads and stores an uploaded book for the user; throws IngestError for files it refuses. */
export async function storeUpload(deps: UploadDeps, userId: string, filename: string, bytes: Uint8Array) {
  const { repo, storage, quotas } = deps;
  await deps.storageHealth?.assertRoom();
  const fileKey = newUploadKey();
  const files = await readUpload(bytes, filename, fileKey);
  const kept = [...files.values()].reduce((sum, data) => sum + data.byteLength, 0);
  // Control characters (NUL among them) cannot be stored as text and mean nothing in a name.
  const cleanName =
    (filename.split(/[\\/]/).pop() ?? 'upload.txt').replace(/\p{Cc}/gu, '').slice(0, 255) || 'upload.txt';
  // The upload's row reserves the bytes it keeps, in the transaction that checks the quotas.
  await repo.transaction(async (tx) => {
    await quotas.reserveStorage(tx, userId, kept);
    await quotas.takeUpload(tx, userId);
    await tx.uploads.insert(fileKey, userId, cleanName, kept);
  });
  const written: string[] = [];
  try {
    for (const [key, data] of files) {
      written.push(key);
      await storage.write(key, data);
    }
  } catch (error) {
    await repo.uploads.remove(fileKey).catch(() => undefined);
    await Promise.all(written.map((k) => storage.delete(k).catch(() => undefined)));
    throw error;
  }
  return { file_key: fileKey, filename: cleanName, size_bytes: bytes.byteLength };
}

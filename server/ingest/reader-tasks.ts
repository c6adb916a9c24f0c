/**
 * What the document reader's thread runs (reader-worker.mjs loads this module; reader.ts is its
 * client on the server's side): reading an upload of any format, extracting a web page's article,
 * and finding a long text's chapters. Each parses untrusted input of up to several megabytes,
 * which may take seconds. The parsers load with the first task that needs them, so a thread that
 * only plans chapters stays small.
 */
import { planBook } from './chapters';

export const readerTasks = {
  readUpload: async (bytes: Uint8Array, filename: string) => (await import('./upload')).readUpload(bytes, filename),
  extractArticle: async (html: string, url: string, contentType: 'text/html' | 'text/plain') =>
    (await import('./extract')).extractArticle(html, url, contentType),
  planBook: (title: string, text: string) => planBook(title, text),
};

export type ReaderTasks = typeof readerTasks;

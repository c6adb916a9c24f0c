/**
 * What the document reader's thread runs (reader-worker.mjs loads this module; reader.ts is its
 * client on the server's side): reading an upload of any format, and extracting a web page's
 * article. Both parse untrusted input of up to several megabytes, which may take seconds.
 */
import { extractArticle } from './extract';
import { readUpload } from './upload';

export const readerTasks = {
  readUpload: (bytes: Uint8Array, filename: string) => readUpload(bytes, filename),
  extractArticle: (html: string, url: string, contentType: 'text/html' | 'text/plain') =>
    extractArticle(html, url, contentType),
};

export type ReaderTasks = typeof readerTasks;

import { getReconvertJobMockHandler } from '../api/gen/endpoints/jobs/reconvert-job.msw';
import { getGetPronunciationsMockHandler } from '../api/gen/endpoints/pronunciations/get-pronunciations.msw';
import { getPutPronunciationsMockHandler } from '../api/gen/endpoints/pronunciations/put-pronunciations.msw';
import type { Pronunciation, ReconvertResult } from '../api/gen/model';
import { answer, type ReplyOptions } from './answer';

/** The reader's pronunciations as the book page's editor reads and saves them, and re-converting a book with them. */
export function pronunciationsHandler(options: ReplyOptions & { entries?: Pronunciation[] } = {}) {
  return getGetPronunciationsMockHandler(answer(options, () => options.entries ?? []));
}

/** PUT /pronunciations: answers the list as sent (trimmed); `onPut` sees each list. */
export function putPronunciationsHandler(options: ReplyOptions & { onPut?: (list: Pronunciation[]) => void } = {}) {
  return getPutPronunciationsMockHandler(
    answer(options, async ({ request }) => {
      const list = ((await request.clone().json()) as Pronunciation[]).map((e) => ({
        text: e.text.trim(),
        say_as: e.say_as.trim(),
      }));
      options.onPut?.(list);
      return list;
    }),
  );
}

/** POST /jobs/{jobId}/reconvert: re-converts `chapters` (none by default) of the sample book. */
export function reconvertHandler(options: ReplyOptions & { chapters?: number[] } = {}) {
  return getReconvertJobMockHandler(
    answer(options, (): ReconvertResult => {
      const chapters = options.chapters ?? [];
      return { chapters, status: chapters.length > 0 ? 'PENDING' : 'COMPLETED' };
    }),
  );
}

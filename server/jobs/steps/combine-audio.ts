/** combine_audio: a book's chapters joined into one MP3, with one timing map for the whole book. */
import { concatMp3 } from '../../audio/concat';
import { readTimingMap } from '../../books/timing';
import { audioKey, timingKey } from '../storage-keys';
import { timingMapJson } from '../timing';
import { PipelineError, type Step } from './context';

export const combineAudio: Step = async ({ repo, storage }, { job }) => {
  const children = await repo.jobs.children([job.id]);
  const keys = children.map((c) => c.outputFileKey);
  if (children.length === 0 || keys.some((k) => k === null)) throw new PipelineError('A chapter has no audio');
  const key = audioKey(job.id);
  const size = await concatMp3(storage, keys as string[], key);
  // The book's timing map, a chapter's entries at a time (a long book's map is never whole in memory).
  let offset = 0;
  async function* chapterMaps() {
    for (const child of children) {
      const entries = (await readTimingMap(storage, child.outputFileKey!).catch(() => null)) ?? [];
      yield { entries, timeOffset: offset, charOffset: Number(child.config.char_offset ?? 0) };
      offset += child.duration ?? 0;
    }
  }
  const timing = await storage.write(timingKey(key), timingMapJson(chapterMaps()));
  // The first chapter's opening has served: the book plays as a whole now.
  for (const child of children) {
    if (child.config.opening) await storage.delete(child.config.opening.file_key).catch(() => undefined);
  }
  return {
    metadata: {
      chapters: children.length,
      duration_seconds: offset,
      file_size_bytes: size,
      timing_file_bytes: timing.size,
      output_file_key: key,
    },
  };
};

/** synthesize_chapters: a book hands its chapters to the queue and waits until they are converted. */
import { PipelineError, type Step } from './context';

export const synthesizeChapters: Step = async ({ repo, scheduleChapters }, { job }) => {
  const outcome = await scheduleChapters(job.id);
  if (outcome.state === 'failed') throw new PipelineError(outcome.message);
  if (outcome.state === 'waiting') return { wait: true };
  const children = await repo.jobs.children([job.id]);
  return { metadata: { chapters: children.length } };
};

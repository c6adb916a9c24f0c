/** acquire_content: a web page is read now (./acquire-page.ts); pasted text and uploads are checked. */
import { acquirePage } from './acquire-page';
import { jobText, PipelineError, storePlan, type Step } from './context';

export const acquireContent: Step = async (deps, { job, signal }) => {
  const source = job.config.source ?? 'content';
  if (source === 'url' && job.parentJobId === null) {
    return acquirePage({ ...deps, keepPlan: (j, plan) => storePlan(deps, j, plan) }, job, signal);
  }
  const text = await jobText(deps, job);
  if (text.trim().length === 0) throw new PipelineError('The text is empty');
  return { metadata: { source, characters: text.length, input_file_key: job.inputFileKey } };
};

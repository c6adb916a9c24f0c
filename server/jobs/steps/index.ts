/**
 * The conversion pipeline's steps, one module each, by step name: the table the runner reads
 * (../runner.ts, ../step-run.ts). Each is idempotent: run again after a crash, it redoes its work
 * from the start. What they share is in ./context.ts.
 */
import { acquireContent } from './acquire-content';
import { analyze } from './analyze';
import { combineAudio } from './combine-audio';
import type { Step, StepContext, StepDeps, StepOutcome } from './context';
import { finalize } from './finalize';
import { splitChapters } from './split-chapters';
import { synthesize } from './synthesize';
import { synthesizeChapters } from './synthesize-chapters';

export { createFetchSlots } from './acquire-page';
export { readText, type ChapterState, type StepDeps, type StepOutcome } from './context';

/** Every step, by the name its job_steps row carries. */
const STEPS: Record<string, Step> = {
  acquire_content: acquireContent,
  analyze,
  split_chapters: splitChapters,
  synthesize,
  synthesize_chapters: synthesizeChapters,
  combine_audio: combineAudio,
  finalize,
};

/** The step implementations, by step name, bound to their dependencies. */
export function createSteps(deps: StepDeps): Record<string, (ctx: StepContext) => Promise<StepOutcome>> {
  return Object.fromEntries(Object.entries(STEPS).map(([name, step]) => [name, (ctx: StepContext) => step(deps, ctx)]));
}

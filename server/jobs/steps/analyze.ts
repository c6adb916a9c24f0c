/** analyze: the tutoring analysis of the job's text, unless it ran beside the synthesis already. */
import { freeWhatSpeechLeft } from '../../analysis/run';
import { analyseAndKeep, type Step } from './context';

export const analyze: Step = async (deps, { job, signal }) => {
  // A text's analysis ran beside its synthesis (see synthesize) and is kept already; a job's
  // text never changes, so a kept analysis is its analysis.
  const kept = job.config.tutoring_analysis;
  if (kept === undefined) freeWhatSpeechLeft(); // a book's chapters are all spoken (../../analysis/run.ts)
  const analysis = kept ?? (await analyseAndKeep(deps, job, signal));
  return {
    metadata: {
      themes: analysis.themes.length,
      characters: analysis.characters.length,
      discussion_questions: analysis.discussion_questions.length,
      content_type: analysis.content_type,
      ran_beside_synthesis: kept !== undefined,
    },
  };
};

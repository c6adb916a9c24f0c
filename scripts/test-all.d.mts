export interface Step {
  script: string;
  name: string;
  /** 1: generated code, 2: the static checks side by side, 3: the tests, in two lanes. */
  stage: 1 | 2 | 3;
  args?: string[];
  /** About what the step takes on a 2-core machine: the longest of a stage start first. */
  seconds?: number;
  /** Stage 3: 'waiting' runs it in the lane of steps that mostly wait, beside the busy lane. */
  lane?: 'waiting';
  /** The step whose failure skips this one (it waits for it). */
  needs?: string;
  /** A step this one waits for, whatever its result (one reads what the other rewrites). */
  after?: string;
  before?: () => void;
}
/** The chain `npm test` runs, in its order. */
export const steps: Step[];
/** The first few of a step's output lines that name what failed (a test, its error), without colour codes. */
export function failureLines(lines: string[]): string[];

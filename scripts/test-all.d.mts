export interface Step {
  script: string;
  name: string;
  /** 1: generated code, 2: the static checks side by side, 3: the tests one at a time. */
  stage: 1 | 2 | 3;
  args?: string[];
  /** About what the step takes on a 2-core machine: the longest of a stage start first. */
  seconds?: number;
  /** The step whose failure skips this one. */
  needs?: string;
  before?: () => void;
}
/** The chain `npm test` runs, in its order. */
export const steps: Step[];

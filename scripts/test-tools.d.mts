export interface TestTool {
  name: string;
  steps: string[];
  present: () => boolean;
  debian: string;
}
export const EPUBCHECK_JAR: string;
export const TOOLS: TestTool[];
export function missingTools(scripts?: string[]): TestTool[];
export function ensureTestTools(scripts?: string[]): boolean;

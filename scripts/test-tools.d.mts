export interface TestTool {
  name: string;
  steps: string[];
  present: () => boolean;
  /** The Debian package that brings it, or */
  debian?: string;
  /** how it is fetched otherwise (resolves with what it did). */
  fetch?: () => Promise<string>;
}
export const EPUBCHECK_JAR: string;
export const TOOLS: TestTool[];
export function missingTools(scripts?: string[]): TestTool[];
export function ensureTestTools(scripts?: string[]): Promise<boolean>;

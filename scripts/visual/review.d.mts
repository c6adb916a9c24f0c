import type { Browser, Page } from 'playwright-core';

export interface Variant {
  viewport: 'phone' | 'desktop';
  width: number;
  height: number;
  theme: 'light' | 'dark';
}
export interface Failure {
  name: string;
  reason: string;
  /** before.png, after.png and diff.png, as far as they exist. */
  files: string[];
}
export const VARIANTS: Variant[];
export const TOLERANCE: { threshold: number; maxDiffRatio: number };
export const FIXED_NOW: string;
export function shotName(storyId: string, variant: Variant): string;
export function openBrowser(): Promise<Browser>;
export function reviewPage(browser: Browser): Promise<Page>;
export function shoot(
  page: Page,
  baseUrl: string,
  storyId: string,
  variant: Variant,
  options?: { prepare?: (page: Page) => Promise<void> },
): Promise<Buffer>;
export function compare(
  before: Buffer,
  after: Buffer,
): { same: boolean; diffPixels: number | null; reason: string; diff: Buffer | null };
export function review(options: {
  baseUrl: string;
  stories: string[];
  baselineDir: string;
  outDir: string;
  update?: boolean;
  variants?: Variant[];
  prepare?: (page: Page) => Promise<void>;
  checkStale?: boolean;
  log?: (line: string) => void;
}): Promise<{ shots: number; failures: Failure[]; written: string[]; seconds: number }>;

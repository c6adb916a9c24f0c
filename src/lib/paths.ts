/**
 * Typed route builders: the one place that spells the SPA's URLs (docs/product.md#routes).
 * It sits in the shared layer, not in app/, because screens link to each other through it and
 * screens may not import the app shell.
 */
import type { AssistantModeOutput } from '../api/gen/model';

/** The voice assistant's modes, as the contract names them. */
export type AssistantMode = AssistantModeOutput;

export const paths = {
  login: () => '/login',
  forgotPassword: () => '/forgot-password',
  resetPassword: () => '/reset-password',
  terms: () => '/terms',
  privacy: () => '/privacy',
  register: () => '/register',
  dashboard: () => '/dashboard',
  upload: () => '/upload',
  jobs: () => '/jobs',
  job: (jobId: string) => `/jobs/${encodeURIComponent(jobId)}`,
  library: () => '/library',
  libraryBook: (jobId: string) => `/library/${encodeURIComponent(jobId)}`,
  account: () => '/account',
  voiceAssistant: (query: { mode?: AssistantMode; jobId?: string; position?: number } = {}) => {
    const search = new URLSearchParams();
    if (query.mode) search.set('mode', query.mode);
    if (query.jobId) search.set('jobId', query.jobId);
    // X-ray asks about the moment the reader is at: the playback position in whole seconds.
    if (query.position !== undefined) search.set('position', String(Math.floor(query.position)));
    const text = search.toString();
    return text ? `/voice-assistant?${text}` : '/voice-assistant';
  },
} as const;

/** Route patterns for the router (wouter syntax). */
export const routePatterns = {
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  terms: '/terms',
  privacy: '/privacy',
  dashboard: '/dashboard',
  upload: '/upload',
  jobs: '/jobs',
  job: '/jobs/:jobId',
  library: '/library',
  libraryBook: '/library/:jobId',
  account: '/account',
  voiceAssistant: '/voice-assistant',
} as const;

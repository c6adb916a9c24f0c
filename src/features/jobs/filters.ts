import type { ListJobsParams } from '../../api/gen/model';

/** How long the search box waits after the last keystroke before it searches. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The jobs list shows 10 jobs a page (docs/product.md#jobs-list). */
export const JOBS_PAGE_SIZE = 10;

/** All, pending, running, completed, failed. 'running' is PENDING + PROCESSING (docs/product.md#jobs-list). */
export const statusFilters = [
  { value: 'all', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'running', label: 'Running' },
  { value: 'completed', label: 'Completed' },
  { value: 'failed', label: 'Failed' },
] as const;
export type StatusFilter = (typeof statusFilters)[number]['value'];

/**
 * The list's sorts (creation date, update date, title, status), with both directions of the creation
 * date. Each maps to the server's sort/order, so the date sorts really sort
 * (docs/adr/0009-earlier-client-defects-fixed.md).
 */
export const sortOptions = [
  { value: 'newest', label: 'Newest', sort: 'created_at', order: 'desc' },
  { value: 'oldest', label: 'Oldest', sort: 'created_at', order: 'asc' },
  { value: 'updated', label: 'Recently updated', sort: 'updated_at', order: 'desc' },
  { value: 'title', label: 'Title', sort: 'title', order: 'asc' },
  { value: 'status', label: 'Status', sort: 'status', order: 'asc' },
] as const;
export type SortOption = (typeof sortOptions)[number]['value'];

/** The jobs list's filters, as kept in the URL query (?q=&status=&sort=&page=). */
export interface JobsFilters {
  q: string;
  status: StatusFilter;
  sort: SortOption;
  page: number;
}

export const defaultFilters: JobsFilters = { q: '', status: 'all', sort: 'newest', page: 1 };

function oneOf<T extends string>(value: string | null, allowed: readonly { value: T }[], fallback: T): T {
  return allowed.find((option) => option.value === value)?.value ?? fallback;
}

/** Filters from a URL query string; unknown values fall back to the defaults. */
export function filtersFromSearch(search: string): JobsFilters {
  const params = new URLSearchParams(search);
  const page = Number.parseInt(params.get('page') ?? '', 10);
  return {
    q: (params.get('q') ?? '').trim(),
    status: oneOf(params.get('status'), statusFilters, defaultFilters.status),
    sort: oneOf(params.get('sort'), sortOptions, defaultFilters.sort),
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

/** The URL query for filters; defaults are left out so a plain /jobs stays plain. */
export function searchFromFilters(filters: JobsFilters): string {
  const params = new URLSearchParams();
  if (filters.q) params.set('q', filters.q);
  if (filters.status !== defaultFilters.status) params.set('status', filters.status);
  if (filters.sort !== defaultFilters.sort) params.set('sort', filters.sort);
  if (filters.page !== 1) params.set('page', String(filters.page));
  return params.toString();
}

/** True when a search or status filter narrows the list (sorting and paging do not). */
export function hasActiveFilters(filters: JobsFilters): boolean {
  return filters.q !== '' || filters.status !== 'all';
}

/**
 * The listJobs query for filters: status=running goes to the server as is (the known defect fixed).
 * Only top-level jobs (books and single texts): a book's chapter jobs are listed under it.
 */
export function listParamsFromFilters(filters: JobsFilters): ListJobsParams {
  const sort = sortOptions.find((option) => option.value === filters.sort) ?? sortOptions[0];
  return {
    page: filters.page,
    page_size: JOBS_PAGE_SIZE,
    top_level: true,
    ...(filters.status !== 'all' ? { status: filters.status } : {}),
    ...(filters.q ? { q: filters.q } : {}),
    sort: sort.sort,
    order: sort.order,
  };
}

import { describe, expect, it } from 'vitest';
import { ListJobsParams } from '../../api/gen/model';
import {
  defaultFilters,
  filtersFromSearch,
  hasActiveFilters,
  listParamsFromFilters,
  searchFromFilters,
} from './filters';

describe('jobs filters in the URL', () => {
  it('reads defaults from an empty or unknown query', () => {
    expect(filtersFromSearch('')).toEqual(defaultFilters);
    expect(filtersFromSearch('status=bogus&sort=nope&page=-2')).toEqual(defaultFilters);
  });

  it('round-trips through the query string, leaving defaults out', () => {
    const filters = { q: 'heart', status: 'running', sort: 'oldest', page: 3 } as const;
    const search = searchFromFilters(filters);
    expect(search).toBe('q=heart&status=running&sort=oldest&page=3');
    expect(filtersFromSearch(search)).toEqual(filters);
    expect(searchFromFilters(defaultFilters)).toBe('');
  });

  it('only search and status count as active filters', () => {
    expect(hasActiveFilters({ ...defaultFilters, sort: 'title', page: 2 })).toBe(false);
    expect(hasActiveFilters({ ...defaultFilters, status: 'failed' })).toBe(true);
    expect(hasActiveFilters({ ...defaultFilters, q: 'x' })).toBe(true);
  });
});

describe('listParamsFromFilters', () => {
  it('sends running to the server (PENDING + PROCESSING), the page size 10 and top-level jobs only', () => {
    expect(listParamsFromFilters({ ...defaultFilters, status: 'running', page: 2 })).toEqual({
      page: 2,
      page_size: 10,
      top_level: true,
      status: 'running',
      sort: 'created_at',
      order: 'desc',
    });
  });

  it.each([
    ['newest', 'created_at', 'desc'],
    ['oldest', 'created_at', 'asc'],
    ['updated', 'updated_at', 'desc'],
    ['title', 'title', 'asc'],
    ['status', 'status', 'asc'],
  ] as const)('sort %s -> %s %s', (sort, field, order) => {
    const params = listParamsFromFilters({ ...defaultFilters, sort, q: 'raven' });
    expect(params).toMatchObject({ sort: field, order, q: 'raven' });
    expect(() => ListJobsParams.parse(params)).not.toThrow();
  });
});

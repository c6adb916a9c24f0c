import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { jobFixture, jobListFixture } from '../../mocks/fixtures';
import { defaultFilters } from './filters';
import type { PolledResult } from './hooks';
import { selectJobsState, useJobsState } from './jobsState';

function result<T>(patch: Partial<PolledResult<T>>): PolledResult<T> {
  return { data: undefined, error: null, isLoading: false, isPolling: false, isPlaceholderData: false, ...patch };
}

describe('selectJobsState', () => {
  it('starts empty: empty list, page 1, limit 10, total 0, pages 0', () => {
    expect(selectJobsState({ filters: defaultFilters })).toEqual({
      list: [],
      currentJob: null,
      isLoading: false,
      isPolling: false,
      isCreating: false,
      error: null,
      pagination: { page: 1, limit: 10, total: 0, pages: 0 },
      filters: defaultFilters,
    });
  });

  it('reads the list answer as items, total, page, limit and pages', () => {
    const page = jobListFixture([jobFixture()], { total: 23, page: 2, page_size: 10, total_pages: 3 });
    const state = selectJobsState({
      filters: { ...defaultFilters, status: 'running', page: 2 },
      list: result({ data: page, isPolling: true }),
    });
    expect(state.list).toBe(page.jobs);
    expect(state.pagination).toEqual({ page: 2, limit: 10, total: 23, pages: 3 });
    expect(state.isPolling).toBe(true);
    expect(state.isLoading).toBe(false);
    expect(state.filters.status).toBe('running');
  });

  it('counts pages from the page asked for while the previous answer is still shown', () => {
    const state = selectJobsState({
      filters: { ...defaultFilters, page: 3 },
      list: result({
        data: jobListFixture([jobFixture()], { total: 23, page: 2, total_pages: 3 }),
        isPlaceholderData: true,
      }),
    });
    expect(state.pagination).toEqual({ page: 3, limit: 10, total: 23, pages: 3 });
  });

  it('keeps the requested page while the first answer loads', () => {
    const state = selectJobsState({ filters: { ...defaultFilters, page: 4 }, list: result({ isLoading: true }) });
    expect(state).toMatchObject({ isLoading: true, pagination: { page: 4, limit: 10, total: 0, pages: 0 } });
  });

  it('reports errors with the server message or the default messages', () => {
    expect(selectJobsState({ filters: defaultFilters, list: result({ error: new Error('boom') }) }).error).toBe(
      'Failed to fetch jobs',
    );
    expect(
      selectJobsState({
        filters: defaultFilters,
        list: result({ error: new ApiError(500, { detail: 'Database down', message: 'Database down' }) }),
      }).error,
    ).toBe('Database down');
    expect(selectJobsState({ filters: defaultFilters, job: result({ error: new ApiError(404, null) }) }).error).toBe(
      'Failed to fetch job',
    );
  });

  it('holds the open job as currentJob', () => {
    const job = jobFixture();
    expect(selectJobsState({ filters: defaultFilters, job: result({ data: job }) }).currentJob).toBe(job);
  });
});

describe('useJobsState', () => {
  it('is not creating while no createJob mutation runs', () => {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
    const { result: hook } = renderHook(() => useJobsState({ filters: defaultFilters }), { wrapper });
    expect(hook.current.isCreating).toBe(false);
  });
});

import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { jobFixture, jobListFixture } from '../../mocks/fixtures';
import { isActiveStatus } from '../../entities/job';
import { stepFixture } from '../../mocks/jobs';
import { hasActiveJobs, jobChanged, jobListChanged, keepJobListUnlessChanged, keepJobUnlessChanged } from './polling';

const job = jobFixture({ steps: [stepFixture({ status: 'RUNNING', progress: 10 })] });

describe('active jobs', () => {
  it('PENDING and PROCESSING are active', () => {
    expect(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED'].filter(isActiveStatus)).toEqual([
      'PENDING',
      'PROCESSING',
    ]);
    expect(hasActiveJobs([{ status: 'COMPLETED' }, { status: 'PENDING' }])).toBe(true);
    expect(hasActiveJobs([{ status: 'FAILED' }])).toBe(false);
    expect(hasActiveJobs(undefined)).toBe(false);
  });
});

describe('the polling change guard', () => {
  it('sees no change when only other fields moved', () => {
    expect(jobChanged(job, { ...job, title: 'Renamed', description: 'x' })).toBe(false);
    expect(jobChanged(job, structuredClone(job))).toBe(false);
  });

  it.each([
    ['status', { status: 'COMPLETED' as const }],
    ['progress', { progress: 41 }],
    ['updated_at', { updated_at: '2025-02-01T10:02:00Z' }],
    ['steps', { steps: [stepFixture({ status: 'RUNNING', progress: 55 })] }],
    ['step count', { steps: [] }],
  ])('sees a change in %s', (_field, patch) => {
    expect(jobChanged(job, { ...job, ...patch })).toBe(true);
  });

  it('a page changes when a job changes, or membership or totals move', () => {
    const page = jobListFixture([job, jobFixture({ id: 'a1b2c3d4-0000-4000-8000-000000000001' })]);
    expect(jobListChanged(page, structuredClone(page))).toBe(false);
    expect(jobListChanged(page, { ...page, total: 3 })).toBe(true);
    expect(jobListChanged(page, { ...page, jobs: [page.jobs[1]!, page.jobs[0]!] })).toBe(true);
    expect(jobListChanged(page, { ...page, jobs: [{ ...page.jobs[0]!, progress: 90 }, page.jobs[1]!] })).toBe(true);
  });

  it('keeps the stored reference when nothing watched changed, else shares what it can', () => {
    const renamed = { ...job, title: 'Renamed' };
    expect(keepJobUnlessChanged(job, renamed)).toBe(job);
    const advanced = { ...job, progress: 80 };
    const merged = keepJobUnlessChanged(job, advanced) as typeof job;
    expect(merged).not.toBe(job);
    expect(merged.progress).toBe(80);
    expect(merged.config).toBe(job.config);
    expect(keepJobUnlessChanged(undefined, job)).toEqual(job);
  });

  it('works as a React Query structuralSharing function', () => {
    const client = new QueryClient();
    const first = jobListFixture([job]);
    const query = client
      .getQueryCache()
      .build(client, { queryKey: ['guarded'], structuralSharing: keepJobListUnlessChanged });
    query.setData(first);
    const listed = first.jobs[0]!;
    query.setData({ ...structuredClone(first), jobs: [{ ...listed, title: 'polled again' }] });
    expect(query.state.data).toBe(first);
    query.setData({ ...first, jobs: [{ ...listed, status: 'COMPLETED' }] });
    expect(query.state.data).not.toBe(first);
  });
});

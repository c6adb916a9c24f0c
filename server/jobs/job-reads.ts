/** Reading jobs: one page of the user's list, one job, a job's steps. */
import { ownedJob, viewJob, type JobServiceDeps } from './job-access';
import { stepView, type JobView } from './job-view';
import type { ListFilter } from './repository';

export function jobReads({ repo }: Pick<JobServiceDeps, 'repo'>) {
  return {
    /** One page of job summaries (the list's shape; `get` has the whole job). */
    async list(filter: ListFilter) {
      const { jobs: summaries, total, waiting } = await repo.jobs.listSummaries(filter);
      // Waiting jobs say how many start before them ("queued, 3 ahead"); a page without any costs no query.
      const positions = await repo.jobs.queuePositions(waiting);
      const jobs = summaries.map((j) => (positions.has(j.id) ? { ...j, queue_position: positions.get(j.id)! } : j));
      return {
        jobs,
        total,
        page: filter.page,
        page_size: filter.pageSize,
        total_pages: Math.ceil(total / filter.pageSize),
      };
    },

    async get(userId: string, jobId: string): Promise<JobView> {
      return viewJob(repo, await ownedJob(repo, userId, jobId));
    },

    async steps(userId: string, jobId: string) {
      await ownedJob(repo, userId, jobId);
      return (await repo.steps.ofJobs([jobId])).map(stepView);
    },
  };
}

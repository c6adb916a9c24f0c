import { Page } from '../../components/ui';

/** Later work: only the heading and what the screen will show. */
export function JobDetail({ jobId }: { jobId: string }) {
  return (
    <Page
      title="Job"
      lead={`The status, progress and steps of job ${jobId.slice(0, 8)} will be shown here.`}
    />
  );
}

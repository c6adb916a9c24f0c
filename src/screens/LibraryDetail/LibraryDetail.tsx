import { Page } from '../../components/ui';

/** Later work: only the heading and what the screen will show. */
export function LibraryDetail({ jobId }: { jobId: string }) {
  return (
    <Page
      title="Audiobook"
      lead={`The player and details for audiobook ${jobId.slice(0, 8)} will be shown here.`}
    />
  );
}

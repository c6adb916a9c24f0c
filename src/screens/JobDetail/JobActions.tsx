import styled from 'styled-components';
import { useLocation } from 'wouter';
import type { Job } from '../../api/gen/model';
import { Button, ButtonLink } from '../../components/ui';
import { isActiveStatus, jobTitle } from '../../entities/job';
import { PollingIndicator, type useCancelJobFlow, type useRetryJobAction } from '../../features/jobs';
import { playBook, playChapter } from '../../features/player';
import { paths } from '../../lib/paths';

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  margin-bottom: ${({ theme }) => theme.space(6)};
`;

interface JobActionsProps {
  job: Job;
  /** The book can be played (finished, or with a chapter converted). */
  playable: boolean;
  isPolling: boolean;
  cancelFlow: ReturnType<typeof useCancelJobFlow>;
  retryAction: ReturnType<typeof useRetryJobAction>;
}

/**
 * What can be done with the job, above its facts: play the book (or a chapter in its book), talk
 * about a finished book, cancel while it runs, retry once it failed, go up to the book of a
 * chapter; and whether the page is refreshing.
 */
export function JobActions({ job, playable, isPolling, cancelFlow, retryAction }: JobActionsProps) {
  const [, navigate] = useLocation();
  const { isCancelling } = cancelFlow;
  const { retry, isRetrying } = retryAction;
  // Something to talk about: a finished book with its analysis (never a failed, cancelled or
  // still running job: the assistant talks about finished books).
  const canDiscuss = job.status === 'COMPLETED' && job.config.tutoring_analysis !== undefined;
  const startBook = () => {
    void playBook(job.id);
    navigate(paths.libraryBook(job.id));
  };

  return (
    <Toolbar>
      {playable && !job.parent_job_id && (
        <Button variant="primary" onClick={startBook}>
          Play Audiobook
        </Button>
      )}
      {job.parent_job_id && job.status === 'COMPLETED' && (
        <Button
          variant="primary"
          onClick={() => {
            const bookId = job.parent_job_id!;
            void playChapter(bookId, job.id);
            navigate(paths.libraryBook(bookId));
          }}
        >
          Play this chapter in the book
        </Button>
      )}
      {canDiscuss && (
        <>
          <ButtonLink href={paths.voiceAssistant({ mode: 'tutor', jobId: job.id })}>Ask Tutor</ButtonLink>
          <ButtonLink href={paths.voiceAssistant({ mode: 'xray', jobId: job.id })}>X-ray Lookup</ButtonLink>
        </>
      )}
      {isActiveStatus(job.status) && (
        <Button
          variant="secondary"
          disabled={isCancelling(job.id)}
          onClick={() => cancelFlow.ask({ id: job.id, title: jobTitle(job) })}
        >
          {isCancelling(job.id) ? 'Cancelling...' : 'Cancel Job'}
        </Button>
      )}
      {job.status === 'FAILED' && (
        <Button disabled={isRetrying} onClick={() => retry(job.id)}>
          {isRetrying ? 'Retrying...' : 'Retry'}
        </Button>
      )}
      {job.parent_job_id && <ButtonLink href={paths.job(job.parent_job_id)}>Go to Parent Book</ButtonLink>}
      <PollingIndicator isPolling={isPolling} />
    </Toolbar>
  );
}

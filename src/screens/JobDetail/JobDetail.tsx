import styled from 'styled-components';
import { Link, useLocation } from 'wouter';
import type { Job } from '../../api/gen/model';
import { ApiError, errorMessage } from '../../api/errors';
import { Alert, Button, ButtonLink, Card, Page, ProgressBar, Spinner, StatusBadge } from '../../components/ui';
import { paths } from '../../lib/paths';
import { VoiceBadge } from '../../components/book';
import { useEnvironment } from '../../features/environment';
import { formatDateTime } from '../../entities/time';
import { chapterTitle, jobTitle } from '../../entities/job';
import { useCancelJobFlow, useJobsState, usePolledJob, useRetryJobAction, defaultFilters } from '../../features/jobs';
import { playChapter } from '../../features/player';
import { JobActions } from './JobActions';
import { TaskProgress } from './TaskProgress';

const Crumbs = styled.nav`
  margin-bottom: ${({ theme }) => theme.space(4)};
  ol {
    display: flex;
    flex-wrap: wrap;
    gap: ${({ theme }) => theme.space(2)};
    list-style: none;
    margin: 0;
    padding: 0;
  }
  li + li::before {
    content: '›';
    margin-right: ${({ theme }) => theme.space(2)};
    color: ${({ theme }) => theme.colors.textMuted};
  }
  [aria-current] {
    font-weight: 600;
  }
`;

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
  gap: ${({ theme }) => theme.space(4)};
  margin-bottom: ${({ theme }) => theme.space(4)};
`;

const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(4)};
`;

const Fact = styled(Card)`
  padding: ${({ theme }) => theme.space(4)};
  h2 {
    margin: 0 0 ${({ theme }) => theme.space(2)};
    font-size: ${({ theme }) => theme.fontSizes.sm};
    color: ${({ theme }) => theme.colors.textMuted};
  }
  p {
    margin: 0;
    font-weight: 600;
  }
`;

const SectionTitle = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space(3)};
  font-size: ${({ theme }) => theme.fontSizes.xl};
`;

const ChaptersDone = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(2)};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Chapters = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: ${({ theme }) => theme.space(3)};
    padding: ${({ theme }) => `${theme.space(3)} 0`};
  }
  li + li {
    border-top: 1px solid ${({ theme }) => theme.colors.border};
  }
  strong {
    flex: 1;
    min-width: 12ch;
  }
`;

function notFoundMessage(error: unknown): string {
  // 404, or 422 for an address that is not a job id at all: either way, no such job.
  if (error instanceof ApiError && error.notFound) return 'Job not found';
  return errorMessage(error, 'Job not found');
}

function Breadcrumb({ job }: { job: Job }) {
  return (
    <Crumbs aria-label="Breadcrumb">
      <ol>
        <li>
          <Link href={paths.jobs()}>Jobs</Link>
        </li>
        {job.parent && (
          <li>
            <Link href={paths.job(job.parent.id)}>{job.parent.title || 'Parent book'}</Link>
          </li>
        )}
        <li>
          <span aria-current="page">{jobTitle(job)}</span>
        </li>
      </ol>
    </Crumbs>
  );
}

function ChapterJobs({ job, onPlayChapter }: { job: Job; onPlayChapter: (chapterId: string) => void }) {
  return (
    <Card aria-labelledby="chapter-jobs-heading">
      <SectionTitle id="chapter-jobs-heading">Chapters</SectionTitle>
      {job.children.length === 0 ? (
        <p>No chapters yet.</p>
      ) : (
        <Chapters aria-label="Chapters">
          {job.children.map((child) => {
            const title = chapterTitle(child, job.title.trim());
            const hidden = <span className="visually-hidden"> {title}</span>;
            return (
              <li key={child.id}>
                <strong>{title}</strong>
                <StatusBadge status={child.status} />
                {child.status === 'COMPLETED' && (
                  // The book plays, from this chapter (never the chapter as a book of its own).
                  <Button variant="primary" onClick={() => onPlayChapter(child.id)}>
                    Play
                    {hidden}
                  </Button>
                )}
                <ButtonLink href={paths.job(child.id)}>
                  View
                  {hidden}
                </ButtonLink>
              </li>
            );
          })}
        </Chapters>
      )}
    </Card>
  );
}

/**
 * docs/product.md#job-detail. The job (with its steps) refreshes every 3 s while it is active;
 * a refresh that changes nothing leaves the page as it is.
 */
export function JobDetail({ jobId }: { jobId: string }) {
  const query = usePolledJob(jobId);
  const state = useJobsState({ filters: defaultFilters, job: query });
  const cancelFlow = useCancelJobFlow();
  const retryAction = useRetryJobAction();
  const demoMode = useEnvironment()?.features.demo_mode ?? false;
  const [, navigate] = useLocation();
  const job = state.currentJob;

  if (state.isLoading) {
    return (
      <Page title="Job">
        <Spinner label="Loading job..." />
      </Page>
    );
  }

  if (!job) {
    const message = notFoundMessage(query.error);
    return (
      <Page title="Job not found">
        {message !== 'Job not found' && <Alert>{message}</Alert>}
        <p>This job does not exist, or it is not yours.</p>
        <ButtonLink href={paths.jobs()}>Back to Jobs</ButtonLink>
      </Page>
    );
  }

  const title = jobTitle(job);
  const isBook = job.job_type === 'book_processing' || job.children.length > 0;
  // A book's progress is its chapters: 2 of 33 done is 6 %, whatever its steps say.
  const chaptersDone = job.children.filter((child) => child.status === 'COMPLETED').length;
  // A book plays as soon as one of its chapters is converted: always as the book itself.
  const playable = job.status === 'COMPLETED' || (isBook && chaptersDone > 0);
  const startChapter = (chapterId: string) => {
    void playChapter(job.id, chapterId);
    navigate(paths.libraryBook(job.id));
  };
  const overall =
    job.status === 'COMPLETED'
      ? 100
      : isBook && job.children.length > 0
        ? (chaptersDone / job.children.length) * 100
        : job.progress;

  return (
    <Page title={title} lead={job.description ?? undefined}>
      <Breadcrumb job={job} />
      <JobActions
        job={job}
        isPolling={state.isPolling}
        cancelFlow={cancelFlow}
        retryAction={retryAction}
        playable={playable}
      />
      <Stack>
        {retryAction.error && <Alert>{retryAction.error}</Alert>}
        {state.error && <Alert>{state.error}</Alert>}
      </Stack>

      <Grid>
        <Fact aria-labelledby="job-status">
          <h2 id="job-status">Status</h2>
          <StatusBadge status={job.status} />
        </Fact>
        <Fact aria-labelledby="job-provider">
          <h2 id="job-provider">Voice</h2>
          <p>
            <VoiceBadge job={job} demoMode={demoMode} />
          </p>
        </Fact>
        <Fact aria-labelledby="job-created">
          <h2 id="job-created">Created</h2>
          <p>{formatDateTime(job.created_at)}</p>
        </Fact>
      </Grid>

      <Stack>
        <Card aria-labelledby="overall-progress-heading">
          <SectionTitle id="overall-progress-heading">Overall Progress</SectionTitle>
          {isBook && job.children.length > 0 && (
            <ChaptersDone>{`${chaptersDone} of ${job.children.length} chapters done`}</ChaptersDone>
          )}
          <ProgressBar value={overall} label="Overall progress" tone={job.status === 'FAILED' ? 'danger' : 'primary'} />
        </Card>
        {isBook && <ChapterJobs job={job} onPlayChapter={startChapter} />}
        <TaskProgress key={job.id} steps={job.steps} />
        {job.error_message && (
          <Card aria-labelledby="error-details-heading">
            <SectionTitle id="error-details-heading">Error Details</SectionTitle>
            <Alert>{job.error_message}</Alert>
          </Card>
        )}
      </Stack>
      {cancelFlow.dialog}
    </Page>
  );
}

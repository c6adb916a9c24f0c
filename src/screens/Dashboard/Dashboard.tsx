import styled from 'styled-components';
import { Link } from 'wouter';
import { useGetRecentProgress } from '../../api/gen/endpoints/progress/progress';
import { errorMessage } from '../../api/errors';
import { Alert, ButtonLink, Card, Page, ProgressBar, Spinner, StatusBadge } from '../../components/ui';
import { paths } from '../../lib/paths';
import { useAuth } from '../../features/auth';
import { formatDate, formatDuration } from '../../entities/time';
import { bookTitle, jobTitle } from '../../entities/job';
import { PollingIndicator, POLL_MS, useJobCounts, usePolledJobs } from '../../features/jobs';

/** Recent jobs 5; continue listening 3 (docs/product.md#dashboard). */
const RECENT_JOBS = 5;
const CONTINUE_LISTENING = 3;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(3)};
  margin-bottom: ${({ theme }) => theme.space(6)};
`;

const Counters = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(160px, 1fr));
  gap: ${({ theme }) => theme.space(4)};
  margin: 0 0 ${({ theme }) => theme.space(6)};
`;

const Counter = styled.div`
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadow};
  padding: ${({ theme }) => theme.space(4)};
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
    font-weight: 600;
  }
  dd {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.display};
    font-weight: 800;
    font-variant-numeric: tabular-nums;
  }
`;

const Columns = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(300px, 1fr));
  gap: ${({ theme }) => theme.space(4)};
  align-items: start;
`;

const SectionHead = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(3)};
  margin-bottom: ${({ theme }) => theme.space(3)};
  h2 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.xl};
  }
`;

const Rows = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li + li {
    border-top: 1px solid ${({ theme }) => theme.colors.border};
  }
`;

const RowLink = styled(Link)`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => `${theme.space(3)} ${theme.space(1)}`};
  color: ${({ theme }) => theme.colors.text};
  text-decoration: none;
  &:hover strong {
    text-decoration: underline;
  }
  strong {
    flex: 1;
    overflow-wrap: anywhere;
  }
  small {
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: ${({ theme }) => theme.fontSizes.sm};
  }
`;

const Listening = styled.li`
  padding: ${({ theme }) => `${theme.space(3)} ${theme.space(1)}`};
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(1)};
  small {
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: ${({ theme }) => theme.fontSizes.sm};
  }
`;

const Muted = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(4)};
  color: ${({ theme }) => theme.colors.textMuted};
`;

interface ListeningItem {
  id: string;
  title: string;
  /** Percentage listened, when the reader has started it. */
  percentage?: number;
  duration?: number | null;
}

function counterValue(total: number | undefined, loading: boolean): string {
  if (total !== undefined) return String(total);
  return loading ? '…' : '—';
}

/**
 * docs/product.md#dashboard: welcome, actions, four counters, recent jobs and Continue Listening.
 * Everything refreshes every 10 s while jobs run (the running count decides).
 */
export function Dashboard() {
  const { user } = useAuth();
  const counts = useJobCounts(POLL_MS.dashboard);
  const recent = usePolledJobs(
    { page: 1, page_size: RECENT_JOBS, sort: 'created_at', order: 'desc' },
    { intervalMs: POLL_MS.dashboard, active: counts.active },
  );
  const completedTotal = counts.completed.data?.total ?? 0;
  // The fallback for Continue Listening: the latest finished books (not their chapter jobs),
  // which are what the library lists and plays.
  const latestBooks = usePolledJobs(
    { status: 'completed', top_level: true, page_size: CONTINUE_LISTENING },
    { intervalMs: POLL_MS.dashboard, active: counts.active },
  );
  // Continue Listening prefers what the reader played last (with how far they got) ...
  const progress = useGetRecentProgress({ limit: 10 }, { query: { enabled: completedTotal > 0, retry: false } });
  const started: ListeningItem[] = (progress.data ?? [])
    .filter((record) => !record.is_completed)
    .slice(0, CONTINUE_LISTENING)
    .map((record) => ({
      id: record.job_id,
      title: bookTitle({ id: record.job_id, title: record.job_title ?? '' }),
      percentage: record.percentage_complete,
    }));
  // ... and falls back to the latest completed jobs (also when that call fails).
  // (Nothing while the recent list is on its way, so one list does not replace the other.)
  const listening: ListeningItem[] = started.length
    ? started
    : progress.isLoading
      ? []
      : (latestBooks.data?.jobs ?? []).slice(0, CONTINUE_LISTENING).map((job) => ({
          id: job.id,
          title: jobTitle(job),
          duration: job.duration ?? job.result_data.duration ?? null,
        }));

  const queries = [counts.total, counts.completed, counts.running, counts.failed, recent];
  const failed = queries.find((query) => query.error);
  const isPolling = queries.some((query) => query.isPolling);
  const loadingCounts = counts.total.isLoading;

  const counters = [
    { label: 'Total Jobs', query: counts.total },
    { label: 'Completed', query: counts.completed },
    { label: 'Running', query: counts.running },
    { label: 'Failed', query: counts.failed },
  ];

  return (
    <Page title="Dashboard" lead={user ? `Welcome, ${user.email}` : 'Welcome to Lectio'}>
      {failed && <Alert>{errorMessage(failed.error, 'Failed to fetch jobs')}</Alert>}
      <Actions>
        <ButtonLink variant="primary" href={paths.upload()}>
          Upload New Story
        </ButtonLink>
        <ButtonLink href={paths.jobs()}>View All Jobs</ButtonLink>
        <ButtonLink href={paths.library()}>Browse Library</ButtonLink>
      </Actions>

      <Counters aria-busy={loadingCounts}>
        {counters.map(({ label, query }) => (
          <Counter key={label}>
            <dt>{label}</dt>
            <dd>{counterValue(query.data?.total, query.isLoading)}</dd>
          </Counter>
        ))}
      </Counters>

      <Columns>
        <Card aria-labelledby="recent-jobs-heading">
          <SectionHead>
            <h2 id="recent-jobs-heading">Recent Jobs</h2>
            <PollingIndicator isPolling={isPolling} />
          </SectionHead>
          {recent.isLoading ? (
            <Spinner label="Loading jobs..." />
          ) : recent.data && recent.data.jobs.length === 0 ? (
            <>
              <Muted>No jobs yet. Turn a story into an audiobook to get started.</Muted>
              <ButtonLink variant="primary" href={paths.upload()}>
                Upload Story
              </ButtonLink>
            </>
          ) : (
            <Rows aria-label="Recent jobs">
              {(recent.data?.jobs ?? []).map((job) => (
                <li key={job.id}>
                  <RowLink href={paths.job(job.id)}>
                    <strong>{jobTitle(job)}</strong>
                    <small>{formatDate(job.created_at)}</small>
                    <StatusBadge status={job.status} />
                  </RowLink>
                </li>
              ))}
            </Rows>
          )}
        </Card>

        {completedTotal > 0 && listening.length > 0 && (
          <Card aria-labelledby="continue-listening-heading">
            <SectionHead>
              <h2 id="continue-listening-heading">Continue Listening</h2>
            </SectionHead>
            <Rows aria-label="Continue listening">
              {listening.map((item) => (
                <Listening key={item.id}>
                  <Link href={paths.libraryBook(item.id)}>{item.title}</Link>
                  {item.percentage !== undefined ? (
                    <>
                      <ProgressBar value={item.percentage} label={`Listened of ${item.title}`} showValue={false} />
                      <small>{Math.round(item.percentage)}% listened</small>
                    </>
                  ) : (
                    <small>Ready to play · {formatDuration(item.duration)}</small>
                  )}
                </Listening>
              ))}
            </Rows>
          </Card>
        )}
      </Columns>
    </Page>
  );
}

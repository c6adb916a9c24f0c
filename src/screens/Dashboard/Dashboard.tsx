import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { errorMessage } from '../../api/errors';
import { Alert, ButtonLink, Card, Page, SectionHeader, Spinner, StatusBadge } from '../../components/ui';
import { paths } from '../../lib/paths';
import { useAuth } from '../../features/auth';
import { formatDate } from '../../entities/time';
import { jobTitle } from '../../entities/job';
import { PollingIndicator, POLL_MS, useJobCounts, usePolledJobs } from '../../features/jobs';
// The shelves (covers, tiles, their icons) load beside their data, not before the page shows, and
// so does the invitation that takes their place before the first book (the data chooses which).
const Shelves = lazy(() => import('./Shelves'));
const FirstBook = lazy(() => import('./FirstBook'));

/** Recent jobs 5 (docs/product.md#dashboard). */
const RECENT_JOBS = 5;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
  margin-bottom: ${({ theme }) => theme.space(8)};
`;

const Below = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(300px, 1fr));
  gap: ${({ theme }) => theme.space(4)};
  align-items: start;
`;

const Compact = styled(Card)`
  padding: ${({ theme }) => theme.space(4)};
`;

const Counters = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(96px, 1fr));
  gap: ${({ theme }) => theme.space(2)};
  margin: 0;
  div {
    padding: ${({ theme }) => theme.space(2)};
    border-radius: ${({ theme }) => theme.radii.md};
    background: ${({ theme }) => theme.colors.raised};
  }
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: ${({ theme }) => theme.fontSizes.sm};
  }
  dd {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.xl};
    font-weight: 700;
    font-variant-numeric: tabular-nums;
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
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(1)}`};
  color: ${({ theme }) => theme.colors.text};
  text-decoration: none;
  &:hover strong {
    text-decoration: underline;
  }
  strong {
    flex: 1;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  small {
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: ${({ theme }) => theme.fontSizes.sm};
  }
`;

const Muted = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
`;

function counterValue(total: number | undefined, loading: boolean): string {
  if (total !== undefined) return String(total);
  return loading ? '…' : '—';
}

/**
 * docs/product.md#dashboard: the Dashboard leads with listening. The shelves (Continue listening,
 * Recently added, Converting now), then, compact, the counters and the recent jobs. Everything
 * counts books and single texts, never chapter jobs, and refreshes every 10 s while jobs run.
 */
export function Dashboard() {
  const { user } = useAuth();
  const counts = useJobCounts(POLL_MS.dashboard);
  const recent = usePolledJobs(
    { page: 1, page_size: RECENT_JOBS, sort: 'created_at', order: 'desc', top_level: true },
    { intervalMs: POLL_MS.dashboard, active: counts.active },
  );

  const queries = [counts.total, counts.completed, counts.running, counts.failed, counts.cancelled, recent];
  const failed = queries.find((query) => query.error);
  const isPolling = queries.some((query) => query.isPolling);
  const nothingYet = counts.total.data?.total === 0;

  const counters = [
    { label: 'Total Jobs', query: counts.total },
    { label: 'Completed', query: counts.completed },
    { label: 'Running', query: counts.running },
    { label: 'Failed', query: counts.failed },
    { label: 'Cancelled', query: counts.cancelled },
  ];

  return (
    <Page title="Dashboard" lead={user ? `Welcome, ${user.email}` : 'Welcome to Lectio'}>
      {failed && (
        <Alert>{errorMessage(failed.error, 'Your jobs could not be loaded. Reload the page to try again.')}</Alert>
      )}
      <Actions>
        <ButtonLink variant="primary" href={paths.upload()}>
          Upload New Story
        </ButtonLink>
        <ButtonLink href={paths.jobs()}>View All Jobs</ButtonLink>
        <ButtonLink href={paths.library()}>Browse Library</ButtonLink>
      </Actions>

      <Suspense fallback={<Spinner label="Loading your books..." />}>
        {nothingYet ? <FirstBook /> : <Shelves active={counts.active} />}
      </Suspense>

      <Below>
        <Compact aria-labelledby="counts-heading">
          <SectionHeader>
            <h2 id="counts-heading">Your jobs</h2>
            <PollingIndicator isPolling={isPolling} />
          </SectionHeader>
          <Counters aria-busy={counts.total.isLoading}>
            {counters.map(({ label, query }) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{counterValue(query.data?.total, query.isLoading)}</dd>
              </div>
            ))}
          </Counters>
        </Compact>
        <Compact aria-labelledby="recent-jobs-heading">
          <SectionHeader>
            <h2 id="recent-jobs-heading">Recent Jobs</h2>
          </SectionHeader>
          {recent.isLoading ? (
            <Spinner label="Loading jobs..." />
          ) : recent.data && recent.data.jobs.length === 0 ? (
            <Muted>No jobs yet.</Muted>
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
        </Compact>
      </Below>
    </Page>
  );
}

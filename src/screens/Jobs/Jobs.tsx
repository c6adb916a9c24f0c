import { useEffect, useMemo, useRef, useState } from 'react';
import styled from 'styled-components';
import { useLocation, useSearch } from 'wouter';
import type { JobSummary } from '../../api/gen/model';
import {
  Alert,
  Button,
  ButtonLink,
  Card,
  Page,
  Pagination,
  SelectField,
  Spinner,
  TextField,
} from '../../components/ui';
import { paths } from '../../lib/paths';
import { countLabel, jobTitle } from '../../entities/job';
import {
  filtersFromSearch,
  hasActiveFilters,
  listParamsFromFilters,
  PollingIndicator,
  POLL_MS,
  SEARCH_DEBOUNCE_MS,
  searchFromFilters,
  sortOptions,
  statusFilters,
  useCancelJobFlow,
  useDeleteJobFlow,
  useJobsState,
  usePolledJobs,
  type JobsFilters,
} from '../../features/jobs';
import { JobCard } from './JobCard';

const Toolbar = styled.div`
  display: grid;
  grid-template-columns: minmax(200px, 2fr) repeat(2, minmax(140px, 1fr)) auto;
  align-items: end;
  gap: ${({ theme }) => theme.space(3)};
  margin-bottom: ${({ theme }) => theme.space(4)};
  @media (max-width: 767px) {
    grid-template-columns: 1fr;
  }
`;

const Summary = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(3)};
  margin-bottom: ${({ theme }) => theme.space(3)};
  p {
    margin: 0;
    font-weight: 600;
  }
`;

const List = styled.ul`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(3)};
  list-style: none;
  margin: 0 0 ${({ theme }) => theme.space(4)};
  padding: 0;
`;

const Empty = styled(Card)`
  text-align: center;
  h2 {
    margin: 0 0 ${({ theme }) => theme.space(2)};
    font-size: ${({ theme }) => theme.fontSizes.xl};
  }
  p {
    margin: 0 0 ${({ theme }) => theme.space(4)};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/** Filters live in the URL query, so reload, links and Back keep them. */
function useUrlFilters(): [JobsFilters, (next: JobsFilters, options?: { replace?: boolean }) => void] {
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const setFilters = (next: JobsFilters, options: { replace?: boolean } = {}) => {
    const query = searchFromFilters(next);
    navigate(query ? `${paths.jobs()}?${query}` : paths.jobs(), options);
  };
  return [filters, setFilters];
}

/** The jobs list (docs/product.md#jobs-list): search, filter, sort, pages of 10, cancel. Polls every 5 s while jobs run. */
export function Jobs() {
  const [filters, setFilters] = useUrlFilters();
  const list = usePolledJobs(listParamsFromFilters(filters), { intervalMs: POLL_MS.jobsList, keepPrevious: true });
  const state = useJobsState({ filters, list });
  const cancelFlow = useCancelJobFlow();
  const askCancel = (job: JobSummary) => cancelFlow.ask({ id: job.id, title: jobTitle(job) });
  const deleteFlow = useDeleteJobFlow();
  const { deleted } = deleteFlow;
  const askDelete = (job: JobSummary) =>
    deleteFlow.ask({ id: job.id, title: jobTitle(job), audiobook: job.status === 'COMPLETED' });

  // The search box shows what is typed at once; the URL (and so the query) follows 300 ms later.
  const [text, setText] = useState(filters.q);
  const [shownQ, setShownQ] = useState(filters.q);
  if (shownQ !== filters.q) {
    // The URL's q changed from elsewhere (Back, Clear Filters): show it.
    setShownQ(filters.q);
    if (text.trim() !== filters.q) setText(filters.q);
  }
  const latest = useRef(filters);
  latest.current = filters;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onSearch = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const q = value.trim();
      if (q !== latest.current.q) setFilters({ ...latest.current, q, page: 1 }, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
  };

  const clearFilters = () => {
    clearTimeout(timer.current);
    setText('');
    setFilters({ ...filters, q: '', status: 'all', page: 1 });
  };

  const { list: jobs, pagination, isLoading, isPolling, error } = state;
  const loaded = list.data !== undefined;

  return (
    <Page title="Jobs" lead="Follow your conversions, open a job, or play a finished audiobook.">
      {error && <Alert>{error}</Alert>}
      {deleted && <Alert tone="success">{`Deleted "${deleted}".`}</Alert>}
      <Toolbar role="search" aria-label="Jobs">
        <TextField
          label="Search"
          type="search"
          placeholder="Title or job id"
          value={text}
          onChange={(event) => onSearch(event.target.value)}
        />
        <SelectField
          label="Status"
          options={statusFilters}
          value={filters.status}
          onChange={(event) => setFilters({ ...filters, status: event.target.value as JobsFilters['status'], page: 1 })}
        />
        <SelectField
          label="Sort by"
          options={sortOptions}
          value={filters.sort}
          onChange={(event) => setFilters({ ...filters, sort: event.target.value as JobsFilters['sort'], page: 1 })}
        />
        <ButtonLink variant="primary" href={paths.upload()}>
          New Job
        </ButtonLink>
      </Toolbar>

      <Summary>
        <p role="status">{loaded ? countLabel(pagination.total, 'job') : ''}</p>
        <PollingIndicator isPolling={isPolling} />
      </Summary>

      {isLoading ? (
        <Spinner label="Loading jobs..." />
      ) : loaded && jobs.length === 0 ? (
        hasActiveFilters(filters) ? (
          <Empty>
            <h2>No jobs match your filters</h2>
            <p>Try another search or status, or clear the filters.</p>
            <Button variant="secondary" onClick={clearFilters}>
              Clear Filters
            </Button>
          </Empty>
        ) : pagination.total > 0 ? (
          <Empty>
            <h2>No jobs on this page</h2>
            <p>The list is shorter than this page number.</p>
            <Button variant="secondary" onClick={() => setFilters({ ...filters, page: 1 })}>
              Go to first page
            </Button>
          </Empty>
        ) : (
          <Empty>
            <h2>No jobs yet</h2>
            <p>Turn a story into an audiobook and follow its progress here.</p>
            <ButtonLink variant="primary" href={paths.upload()}>
              Upload Story
            </ButtonLink>
          </Empty>
        )
      ) : (
        <List aria-label="Jobs list" aria-busy={list.isPlaceholderData}>
          {jobs.map((job) => (
            <li key={job.id}>
              <JobCard
                job={job}
                onCancel={askCancel}
                cancelling={cancelFlow.isCancelling(job.id)}
                onDelete={askDelete}
              />
            </li>
          ))}
        </List>
      )}

      <Pagination
        page={pagination.page}
        pages={pagination.pages}
        onChange={(page) => setFilters({ ...filters, page })}
        label="Jobs pages"
      />

      {deleteFlow.dialog}
      {cancelFlow.dialog}
    </Page>
  );
}

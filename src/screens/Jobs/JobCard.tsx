import { useId, useState } from 'react';
import styled from 'styled-components';
import type { JobSummary } from '../../api/gen/model';
import { Badge, Button, ButtonLink, Card, FactList, ProgressBar, StatusBadge } from '../../components/ui';
import { paths } from '../../lib/paths';
import { VoiceBadge } from '../../components/book';
import { useEnvironment } from '../../features/environment';
import { formatDate } from '../../entities/time';
import {
  chaptersDoneLabel,
  countLabel,
  isActiveStatus,
  isBook,
  jobProgress,
  jobTitle,
  queuedLabel,
} from '../../entities/job';
import { BookChapters } from './BookChapters';
import { JobStatusIcon } from '../../features/jobs';
import { playChapter } from '../../features/player';

const Article = styled(Card)`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(4)};
`;

const Head = styled.div`
  display: flex;
  align-items: center;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(3)};
`;

const Title = styled.h2`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.lg};
  overflow-wrap: anywhere;
`;

const Muted = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
`;

export interface JobCardProps {
  job: JobSummary;
  /** Asks to cancel a running job (the screen confirms first). */
  onCancel: (job: JobSummary) => void;
  cancelling: boolean;
  /** Asks to delete a finished job (the screen confirms first). */
  onDelete: (job: JobSummary) => void;
}

/** One job in the list (docs/product.md#jobs-list). Hidden text names the job in each button. */
export function JobCard({ job, onCancel, cancelling, onDelete }: JobCardProps) {
  const titleId = useId();
  const chaptersId = useId();
  const [open, setOpen] = useState(false);
  const demoMode = useEnvironment()?.features.demo_mode ?? false;
  const title = jobTitle(job);
  const chapters = job.chapter_count;
  const book = isBook(job);
  const done = chaptersDoneLabel(job);
  const active = isActiveStatus(job.status);
  const queued = queuedLabel(job);
  const forTitle = <span className="visually-hidden"> {title}</span>;
  return (
    <Article as="article" aria-labelledby={titleId}>
      <Head>
        <JobStatusIcon status={job.status} />
        <Title id={titleId}>{title}</Title>
        <StatusBadge status={job.status} />
        {/* When the answer does not say how many chapters are ready, the count alone. */}
        {chapters > 0 && !done && <Badge tone="info">{countLabel(chapters, 'chapter')}</Badge>}
      </Head>
      {done && <Muted>{done}</Muted>}
      {queued && <Muted>{queued}</Muted>}
      {job.parent_job_id && <Muted>Part of parent book job</Muted>}
      <FactList>
        <div>
          <dt>Created</dt>
          <dd>{formatDate(job.created_at)}</dd>
        </div>
        <div>
          <dt>Voice</dt>
          <dd>
            <VoiceBadge job={job} demoMode={demoMode} />
          </dd>
        </div>
      </FactList>
      {active && <ProgressBar value={jobProgress(job)} label={`Progress of ${title}`} />}
      <Actions>
        {job.parent_job_id && (
          <ButtonLink href={paths.job(job.parent_job_id)}>
            Go to Parent
            <span className="visually-hidden"> of {title}</span>
          </ButtonLink>
        )}
        {job.status === 'COMPLETED' && (
          // A chapter job plays as its book, from that chapter.
          <ButtonLink
            variant="primary"
            href={paths.libraryBook(job.parent_job_id ?? job.id)}
            onClick={job.parent_job_id ? () => void playChapter(job.parent_job_id!, job.id) : undefined}
          >
            Play
            {forTitle}
          </ButtonLink>
        )}
        <ButtonLink href={paths.job(job.id)}>
          View
          {forTitle}
        </ButtonLink>
        {active && (
          <Button variant="secondary" disabled={cancelling} onClick={() => onCancel(job)}>
            {cancelling ? 'Cancelling...' : 'Cancel'}
            {forTitle}
          </Button>
        )}
        {book && (
          <Button variant="secondary" aria-expanded={open} aria-controls={chaptersId} onClick={() => setOpen(!open)}>
            Show chapters
            <span className="visually-hidden"> of {title}</span>
          </Button>
        )}
        {/* A finished job can be deleted; a chapter goes with its book. */}
        {!active && !job.parent_job_id && (
          <Button variant="secondary" onClick={() => onDelete(job)}>
            Delete
            {forTitle}
          </Button>
        )}
      </Actions>
      {book && <div id={chaptersId}>{open && <BookChapters bookId={job.id} bookTitle={title} />}</div>}
    </Article>
  );
}

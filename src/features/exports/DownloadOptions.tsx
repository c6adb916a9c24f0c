import styled from 'styled-components';
import { errorMessage } from '../../api/errors';
import type { Export } from '../../api/gen/model';
import { Alert, Button, ProgressBar, Spinner } from '../../components/ui';
import { formatBytes } from '../../entities/time';
import { DOWNLOAD_FORMATS, isBuilding } from './download-formats';
import { useBookExports, useCancelExport, useStartExport } from './hooks';

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(3)};
`;

const Item = styled.li`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(3)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  h3 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.md};
  }
  p {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.sm};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  & > :first-child {
    flex: 1;
  }
`;

/** A ready file: a plain link, so the browser downloads it under its own name. */
const FileLink = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: 40px;
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.primaryText};
  font-weight: 600;
  text-decoration: none;
  &:hover {
    background: ${({ theme }) => theme.colors.primaryHover};
    color: ${({ theme }) => theme.colors.primaryText};
  }
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

function State({
  entry,
  label,
  onStart,
  onStop,
  starting,
  stopping,
}: {
  entry: Export;
  label: string;
  onStart: () => void;
  onStop: () => void;
  starting: boolean;
  stopping: boolean;
}) {
  if (entry.status === 'ready' && entry.download_url !== null) {
    return (
      <Row>
        <span>{`${entry.filename}${entry.size_bytes === null ? '' : `, ${formatBytes(entry.size_bytes)}`}`}</span>
        <FileLink href={entry.download_url} download={entry.filename}>
          {`Download ${label}`}
        </FileLink>
      </Row>
    );
  }
  if (isBuilding(entry)) {
    return (
      <Row>
        <ProgressBar value={entry.progress} label={`Preparing ${label}`} />
        <Button variant="secondary" onClick={onStop} disabled={stopping}>
          {stopping ? 'Stopping...' : `Stop preparing ${label}`}
        </Button>
      </Row>
    );
  }
  return (
    <>
      {entry.status === 'failed' && <Alert>{entry.error_message ?? `${label} could not be prepared`}</Alert>}
      <Row>
        <span />
        <Button variant="secondary" onClick={onStart} disabled={starting}>
          {starting ? 'Starting...' : entry.status === 'failed' ? `Try ${label} again` : `Prepare ${label}`}
        </Button>
      </Row>
    </>
  );
}

/**
 * The book's four downloads (docs/product.md#downloads): each is prepared once on the server
 * (progress shown while it is built, which can be stopped), then kept and downloaded as a file.
 */
export function DownloadOptions({ jobId }: { jobId: string }) {
  const exports = useBookExports(jobId);
  const start = useStartExport(jobId);
  const stop = useCancelExport(jobId);
  if (exports.isLoading) return <Spinner label="Loading downloads..." />;
  if (exports.error || !exports.data) {
    return <Alert>{errorMessage(exports.error, 'The downloads could not be loaded')}</Alert>;
  }
  const failure = start.error ?? stop.error;
  return (
    <>
      {failure !== null && <Alert>{errorMessage(failure, 'That did not work; try again')}</Alert>}
      <List aria-label="Downloads">
        {DOWNLOAD_FORMATS.map(({ format, label, description }) => {
          const entry = exports.data.exports.find((e) => e.format === format);
          if (entry === undefined) return null;
          return (
            <Item key={format} aria-label={label}>
              <h3>{label}</h3>
              <p>{description}</p>
              <State
                entry={entry}
                label={label}
                onStart={() => start.start(format)}
                onStop={() => stop.cancel(format)}
                starting={start.pending === format}
                stopping={stop.pending === format}
              />
            </Item>
          );
        })}
      </List>
    </>
  );
}

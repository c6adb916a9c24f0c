import styled from 'styled-components';
import { formatBytes } from '../../entities/time';
import { Alert, Button, ProgressBar } from '../../components/ui';
import { useKeptBook } from './hooks';

const Block = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(2)};
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
`;

const Muted = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const Strong = styled.span`
  font-weight: 600;
  font-variant-numeric: tabular-nums;
`;

/** "On this device · 48.0 MB": what a kept book takes. */
function keptLabel(bytes: number): string {
  return `On this device · ${formatBytes(bytes)}`;
}

/**
 * The book page's "Download to this device" (docs/listening.md#keeping-a-book-on-this-device): a
 * finished book kept for listening without a connection. While it downloads: "Downloading… 42 %"
 * and a progress bar; once kept: what it takes and "Remove from this device"; when storage was
 * refused or full: why, and a new try.
 */
export function KeepOnDevice({ jobId, title }: { jobId: string; title: string }) {
  const { book, download, keep, remove, cancel, dismissFailure } = useKeptBook(jobId);
  if (book) {
    return (
      <Block>
        <Row>
          <Strong>{keptLabel(book.bytes)}</Strong>
          <Button variant="secondary" onClick={remove}>
            Remove from this device
          </Button>
        </Row>
        {!book.persisted && <Muted>The browser may clear it if this device runs low on space.</Muted>}
      </Block>
    );
  }
  if (download?.status === 'downloading') {
    return (
      <Block>
        <Row>
          <Strong role="status">{`Downloading… ${download.percent} %`}</Strong>
          <Button variant="link" onClick={cancel}>
            Cancel download
          </Button>
        </Row>
        <ProgressBar value={download.percent} label={`Downloading ${title} to this device`} showValue={false} />
      </Block>
    );
  }
  return (
    <Block>
      {download?.status === 'failed' && <Alert>{download.message}</Alert>}
      <Row>
        <Button
          variant="secondary"
          onClick={() => {
            dismissFailure();
            keep();
          }}
        >
          Download to this device
        </Button>
      </Row>
    </Block>
  );
}

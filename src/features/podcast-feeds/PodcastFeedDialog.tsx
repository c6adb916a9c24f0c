import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { errorMessage } from '../../api/errors';
import type { Feed } from '../../api/gen/model';
import { Alert, Button, Dialog, Spinner } from '../../components/ui';
import { useFeed } from './hooks';
import { QrCode } from './QrCode';

const Body = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(4)};
  p {
    margin: 0;
  }
  label {
    font-weight: 600;
  }
`;

const UrlRow = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(2)};
  input {
    flex: 1;
    min-width: 0;
    font: inherit;
    font-size: ${({ theme }) => theme.fontSizes.sm};
    padding: ${({ theme }) => theme.space(2)};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.sm};
    color: ${({ theme }) => theme.colors.text};
    background: ${({ theme }) => theme.colors.background};
  }
`;

const Hint = styled.p`
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(2)};
`;

export interface PodcastFeedDialogProps {
  /** The book; omitted for the whole library's feed. */
  jobId?: string;
  /** The book's title (or "Your library"), under the dialog's title. */
  title: string;
  onClose: () => void;
}

type Copy = 'idle' | 'copied' | 'failed';

/**
 * "Listen in a podcast app" (docs/product.md#podcast-feeds): the private feed of a book (or of the
 * library), made on first open, with its address to copy or scan as a QR code, and a way to stop
 * sharing it (every link of the feed stops working at once).
 */
export function PodcastFeedDialog({ jobId, title, onClose }: PodcastFeedDialogProps) {
  const { create, remove } = useFeed();
  const [feed, setFeed] = useState<Feed | null>(null);
  const [copy, setCopy] = useState<Copy>('idle');
  const [stopped, setStopped] = useState(false);
  const { mutate } = create;

  useEffect(() => {
    mutate({ data: jobId === undefined ? {} : { job_id: jobId } }, { onSuccess: setFeed });
  }, [jobId, mutate]);

  const copyUrl = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };

  const stop = (id: string) =>
    remove.mutate(
      { feedId: id },
      {
        onSuccess: () => {
          setFeed(null);
          setStopped(true);
        },
      },
    );

  let content;
  if (stopped) {
    content = (
      <Body>
        <Alert tone="success">This feed is stopped: its address and episodes no longer work anywhere.</Alert>
        <Actions>
          <Button
            variant="secondary"
            onClick={() => {
              setStopped(false);
              mutate({ data: jobId === undefined ? {} : { job_id: jobId } }, { onSuccess: setFeed });
            }}
          >
            Make a new feed
          </Button>
          <Button onClick={onClose}>Done</Button>
        </Actions>
      </Body>
    );
  } else if (create.error) {
    content = <Alert>{errorMessage(create.error, 'The feed could not be made')}</Alert>;
  } else if (feed === null) {
    content = <Spinner label="Making your private feed..." />;
  } else {
    content = (
      <Body>
        <p>
          Add this address to a podcast app (Overcast, Pocket Casts, Apple Podcasts: “Add by URL”). Each chapter is an
          episode.
        </p>
        <label htmlFor="podcast-feed-url">Feed address</label>
        <UrlRow>
          <input id="podcast-feed-url" readOnly value={feed.url} onFocus={(event) => event.currentTarget.select()} />
          <Button variant="secondary" onClick={() => void copyUrl(feed.url)}>
            Copy
          </Button>
        </UrlRow>
        {copy === 'copied' && <Alert tone="success">Copied: paste it in your podcast app.</Alert>}
        {copy === 'failed' && <Alert>Copying did not work here: select the address and copy it yourself.</Alert>}
        <QrCode value={feed.url} label="QR code of the feed address, to scan with a phone" />
        <Hint>
          Anyone with this address can listen, without signing in. Keep it private; stop the feed to end every link at
          once.
        </Hint>
        {remove.error && <Alert>{errorMessage(remove.error, 'The feed could not be stopped')}</Alert>}
        <Actions>
          <Button variant="secondary" onClick={() => stop(feed.id)} disabled={remove.isPending}>
            {remove.isPending ? 'Stopping...' : 'Stop this feed'}
          </Button>
          <Button onClick={onClose}>Done</Button>
        </Actions>
      </Body>
    );
  }

  return (
    <Dialog title="Listen in a podcast app" subtitle={title} onClose={onClose}>
      {content}
    </Dialog>
  );
}

/**
 * "Listen in a podcast app" and its dialog: the book page's (with `jobId`), or the library's
 * (without: the whole library's feed, `label` naming it).
 */
export function PodcastFeedButton({
  jobId,
  title,
  label = 'Listen in a podcast app',
}: {
  jobId?: string;
  title: string;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        {label}
      </Button>
      {open && (
        <PodcastFeedDialog {...(jobId !== undefined && { jobId })} title={title} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

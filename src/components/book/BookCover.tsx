import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useGetAudioCover } from '../../api/gen/endpoints/audio';

/**
 * Cover sizes: the mini-player's, a thumbnail (list rows), a shelf's (at least 120 px wide), the
 * width of its box (library cards), and the book page's.
 */
export type CoverSize = 'mini' | 'thumb' | 'shelf' | 'fill' | 'page';

const WIDTH: Record<CoverSize, string> = {
  mini: '2.75rem',
  thumb: '3.5rem',
  shelf: '8.5rem',
  fill: '100%',
  page: '15rem',
};

/** Covers are 2:3 (a book's shape), so the space is kept while one loads: nothing shifts. */
const Frame = styled.div<{ $size: CoverSize }>`
  flex: none;
  width: ${({ $size }) => WIDTH[$size]};
  aspect-ratio: 2 / 3;
  border-radius: ${({ theme, $size }) => ($size === 'mini' || $size === 'thumb' ? theme.radii.sm : theme.radii.md)};
  overflow: hidden;
  background: ${({ theme }) => theme.tone.neutral.background};
  box-shadow: ${({ theme }) => theme.shadowRaised};
  img {
    display: block;
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
`;

/**
 * A book's cover: the one supplied with its file or the typographic one the server draws, fetched
 * with the reader's token (an <img> cannot send one) and shown from a blob URL. The cover is
 * fetched once per session (React Query keeps it). While it loads, or if it cannot be had, the
 * frame stays as a calm blank of the same size, hidden from screen readers.
 */
export function BookCover({ jobId, title, size = 'page' }: { jobId: string; title: string; size?: CoverSize }) {
  const cover = useGetAudioCover(jobId, { query: { retry: false, staleTime: Infinity, gcTime: Infinity } });
  const [url, setUrl] = useState<string | null>(null);
  const blob = cover.data instanceof Blob && cover.data.size > 0 ? cover.data : null;

  useEffect(() => {
    if (!blob) return undefined;
    const objectUrl = URL.createObjectURL(blob);
    setUrl(objectUrl);
    return () => {
      URL.revokeObjectURL(objectUrl);
      setUrl(null);
    };
  }, [blob]);

  return (
    <Frame $size={size} aria-hidden={url ? undefined : true} data-testid={url ? undefined : 'cover-placeholder'}>
      {url && <img src={url} alt={`Cover of ${title}`} />}
    </Frame>
  );
}

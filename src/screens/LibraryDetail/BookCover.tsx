import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useGetAudioCover } from '../../api/gen/endpoints/audio/audio';

const Image = styled.img`
  display: block;
  max-width: 12rem;
  max-height: 18rem;
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: 0 2px 8px rgb(0 0 0 / 0.15);
`;

/**
 * The book's own cover (from its EPUB), fetched with the reader's token (an <img> cannot send
 * one) and shown from a blob URL. A book without a cover (404) shows nothing.
 */
export function BookCover({ jobId, title }: { jobId: string; title: string }) {
  const cover = useGetAudioCover(jobId, { query: { retry: false, staleTime: Infinity } });
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

  if (!url) return null;
  return <Image src={url} alt={`Cover of ${title}`} />;
}

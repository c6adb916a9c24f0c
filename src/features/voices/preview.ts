import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../api/errors';
import { getGetVoiceSampleQueryOptions } from '../../api/gen/endpoints/voices';
import type { TtsProvider } from '../../api/gen/model';

export type PreviewState =
  | { state: 'idle' }
  | { state: 'loading'; key: string }
  | { state: 'playing'; key: string }
  | { state: 'failed'; key: string; message: string };

export const previewKey = (provider: string, id: string) => `${provider}/${id}`;

/**
 * Plays voice samples, one at a time: the sample (an MP3 the server makes once per voice) is
 * fetched with the bearer token like every API call, kept in the data cache for the session, and
 * played from a blob URL. Asking for the voice that is playing stops it.
 */
export function useVoicePreview() {
  const queryClient = useQueryClient();
  const [preview, setPreview] = useState<PreviewState>({ state: 'idle' });
  const audio = useRef<HTMLAudioElement | null>(null);
  const url = useRef<string | null>(null);
  const asked = useRef(0);

  const stop = useCallback(() => {
    asked.current += 1;
    audio.current?.pause();
    audio.current = null;
    if (url.current) URL.revokeObjectURL(url.current);
    url.current = null;
  }, []);

  useEffect(() => stop, [stop]);

  const toggle = useCallback(
    async (provider: TtsProvider, id: string, name: string) => {
      const key = previewKey(provider, id);
      const wasPlaying = preview.state === 'playing' && preview.key === key;
      stop();
      if (wasPlaying) {
        setPreview({ state: 'idle' });
        return;
      }
      const ticket = asked.current;
      setPreview({ state: 'loading', key });
      try {
        const blob = await queryClient.fetchQuery({
          ...getGetVoiceSampleQueryOptions(provider, id),
          staleTime: Infinity,
          retry: false,
        });
        if (ticket !== asked.current) return;
        url.current = URL.createObjectURL(blob);
        const element = new Audio(url.current);
        audio.current = element;
        element.addEventListener('ended', () => {
          if (audio.current === element) setPreview({ state: 'idle' });
        });
        await element.play();
        if (ticket === asked.current) setPreview({ state: 'playing', key });
      } catch (error) {
        if (ticket !== asked.current) return;
        stop();
        setPreview({
          state: 'failed',
          key,
          message: `The sample of ${name} could not be played: ${errorMessage(error, 'please try again')}`,
        });
      }
    },
    [preview, queryClient, stop],
  );

  return { preview, toggle };
}

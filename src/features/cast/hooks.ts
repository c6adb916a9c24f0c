import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import {
  getGetAudioCastQueryKey,
  getGetAudioTranscriptQueryKey,
  useGetAudioCast,
  usePutAudioCast,
} from '../../api/gen/endpoints/audio';
import { getGetJobQueryKey, useGetJob } from '../../api/gen/endpoints/jobs';
import { correctionKept, reconversionDone } from './actions';
import { state } from './state';

/** How often a book reading changed chapters again is asked whether it is done. */
const RECONVERSION_POLL_MS = 3000;

/** A book's cast (its characters and their voices), asked for only when `enabled` (a cast book). */
export function useBookCast(jobId: string, enabled: boolean) {
  return useGetAudioCast(jobId, { query: { enabled, retry: false, staleTime: 60_000 } });
}

/**
 * Gives the quote of chapter `chapter` that starts at `quoteStart` another speaker; the chapters
 * the server reads again are followed (useCastReconversion), and the book's cast and text are read
 * again at once (who speaks what changed already, the voices come with the new audio).
 */
export function useChangeSpeaker(jobId: string) {
  const queryClient = useQueryClient();
  const put = usePutAudioCast();
  const change = async (chapter: number, quoteStart: number, speaker: string) => {
    const answer = await put.mutateAsync({
      jobId,
      data: { overrides: [{ chapter, char_start: quoteStart, speaker }] },
    });
    correctionKept(jobId, answer.chapters_reconverting);
    queryClient.setQueryData(getGetAudioCastQueryKey(jobId), {
      narrator: answer.narrator,
      characters: answer.characters,
    });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: getGetAudioTranscriptQueryKey(jobId) }),
      queryClient.invalidateQueries({ queryKey: getGetJobQueryKey(jobId) }),
    ]);
    return answer;
  };
  return { change, isPending: put.isPending, error: put.error, reset: put.reset };
}

/**
 * The chapters of a book being read again after a correction ([] when none): the book is asked
 * after until it has converted them, then its text and cast are read again.
 */
export function useCastReconversion(jobId: string): number[] {
  const queryClient = useQueryClient();
  const pending = useSnapshot(state).reconverting[jobId];
  const job = useGetJob(jobId, {
    query: { enabled: pending !== undefined, refetchInterval: RECONVERSION_POLL_MS, retry: false },
  });
  const done = pending !== undefined && job.data?.status === 'COMPLETED' && job.dataUpdatedAt > pending.since;
  useEffect(() => {
    if (!done) return;
    reconversionDone(jobId);
    void queryClient.invalidateQueries({ queryKey: getGetAudioTranscriptQueryKey(jobId) });
    void queryClient.invalidateQueries({ queryKey: getGetAudioCastQueryKey(jobId) });
  }, [done, jobId, queryClient]);
  return pending ? [...pending.chapters] : [];
}

import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { isActiveStatus, isListenable } from '../../entities/job';
import { usePolledJob } from '../../features/jobs';
import {
  listenAgain,
  loadJob,
  playChapter,
  playerState,
  useOpeningPlayable,
  usePlayer,
  useSavedProgress,
} from '../../features/player';
import { useRecap } from '../../features/voice-assistant';
import { paths } from '../../lib/paths';

/**
 * The book page's state: the book (polled while it converts: its page turns into the player as
 * soon as chapter 1, or its opening, can be played), whether it can be played, its saved place,
 * starting over, and "Previously…". Loads the book into the player once it can be played; the
 * address of a chapter opens its book.
 */
export function useBookPage(jobId: string) {
  const job = usePolledJob(jobId);
  const player = usePlayer();
  // A finished book, or one still converting whose first chapters can be played already.
  const listenable = job.data
    ? isListenable({
        status: job.data.status,
        chapters_ready: job.data.children.filter((c) => c.status === 'COMPLETED').length,
      })
    : false;
  // Before its first chapter is finished, a converting book can play that chapter's opening.
  const converting = Boolean(job.data && isActiveStatus(job.data.status));
  const opening = useOpeningPlayable(jobId, converting && !listenable);
  const ready = listenable || opening;
  // The saved place comes from the data cache, which the player updates on every save.
  const savedPlace = useSavedProgress(jobId, { enabled: ready }).data;
  // The book the reader started over on this page (its saved place is then 0:00).
  const [restartedId, setRestartedId] = useState<string | null>(null);
  // "Previously…" after a break: for a finished book, until the reader plays on.
  const recap = useRecap(jobId, job.data?.status === 'COMPLETED');
  const [recapDoneFor, setRecapDoneFor] = useState<string | null>(null);

  // Once the book plays again, "Previously…" has done its job.
  const playing = player.currentJobId === jobId && player.isPlaying;
  useEffect(() => {
    if (playing) setRecapDoneFor(jobId);
  }, [playing, jobId]);

  // A chapter is never a book of its own: an address of one (an old link) opens its book, from it.
  const bookOfChapter = job.data?.parent_job_id ?? null;
  const [, navigate] = useLocation();
  useEffect(() => {
    if (bookOfChapter === null) return;
    void playChapter(bookOfChapter, jobId);
    navigate(paths.libraryBook(bookOfChapter), { replace: true });
  }, [bookOfChapter, jobId, navigate]);

  useEffect(() => {
    // A book already loaded (say, playing from the library) keeps playing where it is.
    if (ready && bookOfChapter === null && playerState.currentJobId !== jobId) void loadJob(jobId);
  }, [ready, jobId, bookOfChapter]);

  return {
    job,
    ready,
    /** The book of a chapter's address (the page is on its way there), else null. */
    bookOfChapter,
    savedPlace,
    listeningAgain: restartedId === jobId,
    startOver: () => {
      setRestartedId(jobId);
      void listenAgain(jobId);
    },
    /** "Previously…", until the reader plays on or resumes from it. */
    recap: recapDoneFor === jobId ? null : recap,
    dismissRecap: () => setRecapDoneFor(jobId),
  };
}

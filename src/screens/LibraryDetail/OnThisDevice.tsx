import { useOnline } from '../../features/connectivity';
import { KeepOnDevice, PlaceOfferNotice, useKeptBook, useKeptReadAlong } from '../../features/kept-books';
import { playFrom } from '../../features/player';

/**
 * Whether the browser is online and the book is kept on this device; a kept book's read-along is
 * put into the data cache for the page's read-along.
 */
export function useOnThisDevice(jobId: string): { online: boolean; keptHere: boolean } {
  const online = useOnline();
  const keptHere = useKeptBook(jobId).book !== null;
  useKeptReadAlong(jobId);
  return { online, keptHere };
}

/**
 * The book page's part about this device: a later place another device saved ("Continue from
 * 12:04 on another device?"), and for a finished book "Download to this device" (online), or what
 * it takes once kept and "Remove from this device".
 */
export function OnThisDevice({ jobId, title, finished }: { jobId: string; title: string; finished: boolean }) {
  const { online, keptHere } = useOnThisDevice(jobId);
  return (
    <>
      <PlaceOfferNotice jobId={jobId} title={title} onContinue={(place) => void playFrom(jobId, place)} />
      {finished && (online || keptHere) && <KeepOnDevice jobId={jobId} title={title} />}
    </>
  );
}

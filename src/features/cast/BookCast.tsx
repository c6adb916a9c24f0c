import { useState, type ReactNode } from 'react';
import { errorMessage } from '../../api/errors';
import { Alert } from '../../components/ui';
import type { Tone } from '../../styles/theme';
import { useBookCast, useCastReconversion, useChangeSpeaker } from './hooks';
import { SpeakerMenu } from './SpeakerMenu';
import { reconvertingNotice, speakerTone } from './speakers';

/** A quote's speaker menu as the read-along asks for it (src/features/player's `QuoteMenu`). */
interface QuoteMenu {
  id: string;
  chapter: number;
  quoteStart: number;
  speaker: string;
  uncertain: boolean;
  tabbable: boolean;
}

/** What the cast adds to the read-along (src/features/player's `ReadAlongSpeakers`). */
export interface BookSpeakers {
  toneOf(speaker: string): Tone;
  menu(quote: QuoteMenu): ReactNode;
  notice: ReactNode;
}

/**
 * A full-cast book's speakers for its read-along: `children` receives them (undefined for a book
 * without a cast, or before its cast is known). Choosing another speaker in a quote's menu sends
 * the correction; the chapters read again are announced above the text until they are done.
 */
export function BookCast({
  jobId,
  cast: hasCast,
  children,
}: {
  jobId: string;
  /** The book was converted with a full cast (`voice_config.cast`). */
  cast: boolean;
  children: (speakers: BookSpeakers | undefined) => ReactNode;
}) {
  const cast = useBookCast(jobId, hasCast).data;
  const reconverting = useCastReconversion(jobId);
  const speakers = useChangeSpeaker(jobId);
  const [failed, setFailed] = useState<string | null>(null);

  const change = async (chapter: number, quoteStart: number, speaker: string) => {
    setFailed(null);
    try {
      await speakers.change(chapter, quoteStart, speaker);
    } catch (error) {
      setFailed(errorMessage(error, 'The speaker could not be changed'));
    }
  };

  if (!hasCast || cast === undefined) return <>{children(undefined)}</>;
  const notice = failed ? (
    <Alert>{failed}</Alert>
  ) : reconverting.length > 0 ? (
    <Alert tone="info">{`${reconvertingNotice(reconverting)}. The book plays on meanwhile.`}</Alert>
  ) : null;
  return (
    <>
      {children({
        toneOf: (speaker) => speakerTone(cast, speaker),
        notice,
        menu: (quote) => (
          <SpeakerMenu
            id={quote.id}
            cast={cast}
            speaker={quote.speaker}
            uncertain={quote.uncertain}
            tabbable={quote.tabbable}
            disabled={speakers.isPending}
            onChoose={(speaker) => void change(quote.chapter, quote.quoteStart, speaker)}
          />
        ),
      })}
    </>
  );
}

import styled from 'styled-components';
import type { Job } from '../../api/gen/model';
import { Disclosure } from '../../components/ui';
import { voiceLabel, voiceLabelText } from '../../entities/provider';
import { formatBytes, formatDateTime, formatDuration } from '../../entities/time';
import type { usePlayerMetadata } from '../../features/player';

const Stack = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
`;

const Details = styled.dl`
  margin: 0;
  display: grid;
  grid-template-columns: auto 1fr;
  gap: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
  }
  dd {
    margin: 0;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
`;

/** '19s ready · about 11m 13s in all' while a book converts, else its length. */
export function durationText(duration: number, estimate: number): string {
  return estimate > duration
    ? `${formatDuration(duration)} ready · about ${formatDuration(estimate)} in all`
    : formatDuration(duration);
}

/**
 * What few readers need, folded away: the audio's details (format, length, size, the voice that
 * speaks it, sample rate) and the technical ones (short id, dates).
 */
export function BookDetails({
  book,
  metadata,
  voice,
  demoMode,
  duration,
  estimate = 0,
}: {
  book: Job;
  metadata: ReturnType<typeof usePlayerMetadata>;
  voice: Parameters<typeof voiceLabel>[0];
  demoMode: boolean;
  duration: number;
  /** The whole book's estimated length while it converts (0 when unknown or finished). */
  estimate?: number;
}) {
  return (
    <Stack>
      <Disclosure summary="Audio details">
        <Details>
          <dt>Format</dt>
          <dd>{(metadata?.format ?? book.result_data.format ?? 'mp3').toUpperCase()}</dd>
          <dt>Duration</dt>
          <dd>{durationText(duration, estimate)}</dd>
          <dt>File size</dt>
          <dd>{formatBytes(metadata?.file_size ?? book.result_data.file_size_bytes)}</dd>
          <dt>Voice</dt>
          <dd>{voiceLabelText(voiceLabel(voice, demoMode))}</dd>
          <dt>Sample rate</dt>
          <dd>
            {metadata?.sample_rate
              ? `${(metadata.sample_rate / 1000).toFixed(metadata.sample_rate % 1000 ? 2 : 0)} kHz`
              : '—'}
          </dd>
        </Details>
      </Disclosure>
      <Disclosure summary="Dates">
        <Details>
          <dt>Created</dt>
          <dd>{formatDateTime(book.created_at)}</dd>
          <dt>Completed</dt>
          <dd>{formatDateTime(book.completed_at)}</dd>
        </Details>
      </Disclosure>
    </Stack>
  );
}

import styled from 'styled-components';
import { Button } from '../../components/ui';
import { togglePlayback } from '../../features/player';
import { ask, dismissRecap, type Recap } from '../../features/voice-assistant';

const Box = styled.section`
  margin-bottom: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => `${theme.space(3)} ${theme.space(4)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.tone.info.border};
  background: ${({ theme }) => theme.tone.info.background};
  color: ${({ theme }) => theme.tone.info.text};
  h3 {
    margin: 0 0 ${({ theme }) => theme.space(1)};
    font-size: ${({ theme }) => theme.fontSizes.md};
  }
  p {
    margin: 0 0 ${({ theme }) => theme.space(2)};
  }
  div {
    display: flex;
    flex-wrap: wrap;
    gap: ${({ theme }) => theme.space(2)};
  }
`;

function rested(minutes: number): string {
  if (minutes < 90) return `${minutes} minutes`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} hours`;
  return `${Math.round(minutes / (24 * 60))} days`;
}

/**
 * "Previously…": after a break (RECAP_AFTER_MINUTES) the page offers what was heard before the stop,
 * written here and spoken by the assistant on request; then listening resumes where it stopped.
 */
export function RecapCard({ recap, jobId }: { recap: Readonly<Recap>; jobId: string }) {
  return (
    <Box aria-labelledby="va-recap">
      <h3 id="va-recap">Previously…</h3>
      <p>{`You last listened ${rested(recap.restedMinutes)} ago. ${recap.text}`}</p>
      <div>
        <Button
          onClick={() => {
            dismissRecap();
            void ask('Previously');
          }}
        >
          Hear the recap
        </Button>
        <Button
          variant="secondary"
          onClick={() => {
            dismissRecap();
            void togglePlayback(jobId);
          }}
        >
          Resume listening
        </Button>
      </div>
    </Box>
  );
}

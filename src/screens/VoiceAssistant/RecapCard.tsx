import styled from 'styled-components';
import { Button } from '../../components/ui';
import { togglePlayback } from '../../features/player';
import { ask, dismissRecap, restedFor, type Recap } from '../../features/voice-assistant';

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

/**
 * "Previously…": after a break (RECAP_AFTER_MINUTES) the page offers what was heard before the stop,
 * written here and spoken by the assistant on request; then listening resumes where it stopped.
 */
export function RecapCard({ recap, jobId }: { recap: Readonly<Recap>; jobId: string }) {
  return (
    <Box aria-labelledby="va-recap">
      <h3 id="va-recap">Previously…</h3>
      <p>{`You last listened ${restedFor(recap.restedMinutes)} ago. ${recap.text}`}</p>
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

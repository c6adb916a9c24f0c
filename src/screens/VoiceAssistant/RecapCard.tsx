import styled from 'styled-components';
import { Button } from '../../components/ui';
import { togglePlayback } from '../../features/player';
import { ask, dismissRecap, RecapBox, restedFor, type Recap } from '../../features/voice-assistant';

const Box = styled(RecapBox)`
  margin-bottom: ${({ theme }) => theme.space(3)};
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

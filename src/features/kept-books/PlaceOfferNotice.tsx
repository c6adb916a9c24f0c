import styled from 'styled-components';
import { formatClock } from '../../entities/time';
import { Button } from '../../components/ui';
import { usePlaceOffer } from './hooks';

const Box = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => `${theme.space(3)} ${theme.space(4)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.tone.info.border};
  background: ${({ theme }) => theme.tone.info.background};
  color: ${({ theme }) => theme.tone.info.text};
  p {
    margin: 0;
  }
`;

const Buttons = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
`;

/**
 * Another device saved a later place in `jobId` than the one this device made offline: "Continue
 * from 12:04 on another device?" Continue plays from there (`onContinue`, with the seconds); "Keep
 * my place here" sends this device's place instead. Nothing while there is no such place.
 */
export function PlaceOfferNotice({
  jobId,
  title,
  onContinue,
}: {
  jobId: string;
  title: string;
  onContinue: (position: number) => void;
}) {
  const { offer, take, keepHere } = usePlaceOffer(jobId);
  if (!offer) return null;
  const clock = formatClock(offer.position);
  return (
    <Box role="group" aria-label={`A later place in ${title}`}>
      <p role="status">{`Continue ${title} from ${clock} on another device?`}</p>
      <Buttons>
        <Button
          variant="primary"
          onClick={() => {
            const taken = take();
            if (taken) onContinue(taken.position);
          }}
        >
          {`Continue from ${clock}`}
        </Button>
        <Button variant="secondary" onClick={keepHere}>
          Keep my place here
        </Button>
      </Buttons>
    </Box>
  );
}

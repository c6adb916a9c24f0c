import styled from 'styled-components';
import { useSnapshot } from 'valtio';
import { OUTAGE_MESSAGE } from './connection';
import { connection } from './store';

const Banner = styled.div`
  position: sticky;
  top: 0;
  z-index: 30;
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
  background: ${({ theme }) => theme.tone.info.background};
  color: ${({ theme }) => theme.tone.info.text};
  border-bottom: 1px solid ${({ theme }) => theme.tone.info.border};
  text-align: center;
  font-weight: 600;
`;

/**
 * "Can't reach Lectio — retrying": shown on every signed-in page while the server cannot be
 * reached (connection.ts), gone by itself when it answers again.
 */
export function OutageBanner() {
  const { reachable } = useSnapshot(connection);
  if (reachable) return null;
  return <Banner role="status">{OUTAGE_MESSAGE}</Banner>;
}

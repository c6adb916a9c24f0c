import styled from 'styled-components';
import { useOnline } from '../../features/connectivity';

const OFFLINE_MESSAGE = "You're offline. Books kept on this device still play.";

const Banner = styled.div`
  position: sticky;
  top: 0;
  z-index: 30;
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
  background: ${({ theme }) => theme.tone.neutral.background};
  color: ${({ theme }) => theme.tone.neutral.text};
  border-bottom: 1px solid ${({ theme }) => theme.tone.neutral.border};
  text-align: center;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  /* Online: no height, but still in the page, so the line that comes is announced. */
  &:empty {
    padding: 0;
    border: none;
  }
`;

/**
 * A quiet line at the top of every page while the browser is offline. The live region is always
 * there and only its text comes and goes, so screen readers announce the change.
 */
export function OfflineBanner() {
  const online = useOnline();
  return <Banner role="status">{online ? null : OFFLINE_MESSAGE}</Banner>;
}

import styled from 'styled-components';
import { useSnapshot } from 'valtio';
import { Button } from '../../components/ui';
import { applyUpdate, serviceWorkerUpdate } from '../service-worker/update';

const Toast = styled.div`
  position: fixed;
  top: calc(${({ theme }) => theme.space(3)} + env(safe-area-inset-top, 0px));
  left: 50%;
  transform: translateX(-50%);
  z-index: 60;
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
  max-width: calc(100vw - ${({ theme }) => theme.space(6)});
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(2)} ${theme.space(2)} ${theme.space(4)}`};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.lg};
  box-shadow: ${({ theme }) => theme.shadowRaised};
  font-weight: 600;
`;

/**
 * "Update available": a new version of the app is installed and waiting. It takes over only when
 * the listener presses Reload (a book playing is never cut off by an update).
 */
export function UpdatePrompt() {
  const { waiting } = useSnapshot(serviceWorkerUpdate);
  if (!waiting) return null;
  return (
    <Toast role="status">
      <span>Update available</span>
      <Button aria-label="Reload to update" onClick={() => void applyUpdate()}>
        Reload
      </Button>
    </Toast>
  );
}

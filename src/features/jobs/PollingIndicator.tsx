import styled from 'styled-components';

const Live = styled.span`
  display: inline-block;
  min-width: 7ch;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

/**
 * The polling flag made visible (docs/product.md#polling): 'Updating…' while a background refresh runs. The live
 * region stays mounted (so it is announced) and keeps its width (so nothing shifts).
 */
export function PollingIndicator({ isPolling }: { isPolling: boolean }) {
  return (
    <Live aria-live="polite" data-polling={isPolling}>
      {isPolling ? 'Updating…' : ''}
    </Live>
  );
}

import styled, { keyframes } from 'styled-components';

const spin = keyframes`to { transform: rotate(360deg); }`;

const Wheel = styled.span`
  display: inline-block;
  width: 1em;
  height: 1em;
  border: 2px solid currentColor;
  border-right-color: transparent;
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;
  vertical-align: -0.125em;
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`;

const Row = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(6)};
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** A spinner with a visible, announced label (defaults to 'Loading...', docs/product.md#routes). */
export function Spinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <Row role="status">
      <Wheel aria-hidden="true" />
      <span>{label}</span>
    </Row>
  );
}

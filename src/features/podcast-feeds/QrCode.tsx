import { useMemo } from 'react';
import styled from 'styled-components';
import { renderSVG } from 'uqr';

const Image = styled.img`
  display: block;
  width: 200px;
  height: 200px;
  padding: ${({ theme }) => theme.space(2)};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.sm};
`;

/** `value` as a QR code a phone's camera reads (uqr draws it as SVG); `label` is its text alternative. */
export function QrCode({ value, label }: { value: string; label: string }) {
  const src = useMemo(
    () => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(value, { border: 2 }))}`,
    [value],
  );
  return <Image src={src} alt={label} />;
}

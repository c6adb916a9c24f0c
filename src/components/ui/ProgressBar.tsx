import styled from 'styled-components';

const Row = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
`;

const Track = styled.div`
  flex: 1;
  height: 10px;
  min-width: 80px;
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.tone.neutral.background};
  border: 1px solid ${({ theme }) => theme.colors.border};
  overflow: hidden;
`;

const Fill = styled.div<{ $tone: 'primary' | 'danger' }>`
  height: 100%;
  background: ${({ theme, $tone }) => ($tone === 'danger' ? theme.colors.danger : theme.colors.primary)};
  transition: width 0.3s ease;
  @media (prefers-reduced-motion: reduce) {
    transition: none;
  }
`;

const Value = styled.span`
  min-width: 3.5ch;
  text-align: right;
  font-variant-numeric: tabular-nums;
  color: ${({ theme }) => theme.colors.textMuted};
`;

export interface ProgressBarProps {
  /** 0..100; rounded and clamped. */
  value: number;
  /** The accessible name, e.g. 'Overall progress'. */
  label: string;
  /** Show 'N%' beside the bar (default true). */
  showValue?: boolean;
  tone?: 'primary' | 'danger';
}

/** A determinate progress bar (role=progressbar with aria-valuenow) and its percentage. */
export function ProgressBar({ value, label, showValue = true, tone = 'primary' }: ProgressBarProps) {
  const now = Number.isFinite(value) ? Math.min(100, Math.max(0, Math.round(value))) : 0;
  return (
    <Row>
      <Track role="progressbar" aria-label={label} aria-valuenow={now} aria-valuemin={0} aria-valuemax={100}>
        <Fill $tone={tone} style={{ width: `${now}%` }} />
      </Track>
      {showValue && <Value aria-hidden="true">{now}%</Value>}
    </Row>
  );
}

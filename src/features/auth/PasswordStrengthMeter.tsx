import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { loadStrengthEstimator, personalInputs, type PasswordStrength } from './strength';

const LABELS = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as const;

const Meter = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(1)};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const Track = styled.div`
  display: grid;
  grid-template-columns: repeat(4, 1fr);
  gap: ${({ theme }) => theme.space(1)};
`;

const Segment = styled.span<{ $filled: boolean; $acceptable: boolean }>`
  height: 6px;
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme, $filled, $acceptable }) =>
    !$filled ? theme.tone.neutral.background : $acceptable ? theme.tone.success.text : theme.colors.danger};
  border: 1px solid ${({ theme }) => theme.colors.border};
`;

const Verdict = styled.p<{ $acceptable: boolean }>`
  margin: 0;
  font-weight: 600;
  color: ${({ theme, $acceptable }) => ($acceptable ? theme.tone.success.text : theme.colors.danger)};
`;

const Advice = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** Rates `password` as it is typed; loads the estimator the first time there is something to rate. */
export function usePasswordStrength(password: string, email: string): PasswordStrength | null {
  const [strength, setStrength] = useState<PasswordStrength | null>(null);
  useEffect(() => {
    if (password === '') {
      setStrength(null);
      return;
    }
    let current = true;
    loadStrengthEstimator().then(
      (estimate) => {
        if (current) setStrength(estimate(password, personalInputs(email)));
      },
      () => {
        if (current) setStrength(null);
      },
    );
    return () => {
      current = false;
    };
  }, [password, email]);
  return password === '' ? null : strength;
}

/**
 * The strength of the password being chosen: a four-step meter (role="meter") and its verdict,
 * with what would make the password harder to guess.
 */
export function PasswordStrengthMeter({ strength }: { strength: PasswordStrength | null }) {
  if (strength === null) return null;
  const label = LABELS[strength.score];
  const filled = Math.max(1, strength.score);
  return (
    <Meter>
      <Track
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={4}
        aria-valuenow={strength.score}
        aria-valuetext={label}
      >
        {[1, 2, 3, 4].map((step) => (
          <Segment key={step} $filled={step <= filled} $acceptable={strength.acceptable} />
        ))}
      </Track>
      <Verdict $acceptable={strength.acceptable} aria-live="polite">
        Password strength: {label}
      </Verdict>
      {!strength.acceptable && strength.advice.length > 0 && <Advice>{strength.advice.join(' ')}</Advice>}
    </Meter>
  );
}

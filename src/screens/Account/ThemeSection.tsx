import { useId } from 'react';
import styled from 'styled-components';
import { setSchemePreference, useSchemePreference, type SchemePreference } from '../../styles/colorScheme';
import { Muted, Section } from './Section';

const Choices = styled.fieldset`
  border: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(4)};
  label {
    display: flex;
    align-items: center;
    gap: ${({ theme }) => theme.space(2)};
    cursor: pointer;
  }
`;

const OPTIONS: { value: SchemePreference; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'system', label: 'Same as this device' },
];

/** Light, dark or the device's setting: the same choice as the top bar's dark mode button, kept in this browser. */
export function ThemeSection() {
  const preference = useSchemePreference();
  const name = useId();
  return (
    <Section title="Appearance">
      <Choices>
        <legend className="visually-hidden">Theme</legend>
        {OPTIONS.map((option) => (
          <label key={option.value}>
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={preference === option.value}
              onChange={() => setSchemePreference(option.value)}
            />
            {option.label}
          </label>
        ))}
      </Choices>
      <Muted>Kept in this browser.</Muted>
    </Section>
  );
}

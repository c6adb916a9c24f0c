import { useId, type SelectHTMLAttributes } from 'react';
import styled from 'styled-components';
import { Field, FieldLabel } from './Field';

const Select = styled.select`
  font: inherit;
  min-height: 40px;
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.textMuted};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
`;

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  options: readonly { value: string; label: string }[];
  id?: string;
}

/** A labelled native select. */
export function SelectField({ label, options, id, ...selectProps }: SelectFieldProps) {
  const generated = useId();
  const selectId = id ?? generated;
  return (
    <Field>
      <FieldLabel htmlFor={selectId}>{label}</FieldLabel>
      <Select id={selectId} {...selectProps}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}

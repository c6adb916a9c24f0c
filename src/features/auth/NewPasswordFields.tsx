import type { ComponentProps } from 'react';
import { TextField } from '../../components/ui';
import { PasswordStrengthMeter, usePasswordStrength } from './PasswordStrengthMeter';

type FieldProps = Omit<ComponentProps<typeof TextField>, 'label' | 'type' | 'autoComplete' | 'hint'> & {
  value: string;
};

/**
 * A password being chosen (sign-up, a change, a reset): the field with the strength rule's hint,
 * its strength as it is typed (rated against `email`, when known), and the field that confirms it.
 */
export function NewPasswordFields({
  password,
  confirm,
  email = '',
  label = 'New password',
  confirmLabel = 'Confirm new password',
}: {
  password: FieldProps;
  confirm: FieldProps;
  email?: string;
  label?: string;
  confirmLabel?: string;
}) {
  const strength = usePasswordStrength(password.value, email);
  return (
    <>
      <TextField
        label={label}
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters, and hard to guess: a few unusual words work well."
        {...password}
      />
      <PasswordStrengthMeter strength={strength} />
      <TextField label={confirmLabel} type="password" autoComplete="new-password" {...confirm} />
    </>
  );
}

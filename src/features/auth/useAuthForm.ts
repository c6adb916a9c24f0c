import { useState, type ChangeEvent, type FormEvent } from 'react';
import { errorMessage } from '../../api/errors';
import { validate, type FieldErrors, type FormRules } from './validation';

type KeysOf<T, V> = { [K in keyof T]: T[K] extends V ? K : never }[keyof T] & string;

/**
 * The state the sign-in and sign-up forms share: values, messages, the submit in flight and the
 * server's refusal. Messages show after a first submit and then follow the input as it is corrected.
 */
export function useAuthForm<T extends object>(rules: FormRules<T>, initialValues: T) {
  const [values, setValues] = useState<T>(initialValues);
  const [errors, setErrors] = useState<FieldErrors<T>>({});
  const [attempted, setAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const update = <K extends keyof T>(field: K, value: T[K]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (attempted) setErrors(validate(rules, next) ?? {});
  };

  /** The props of a text input bound to `field`. */
  const text = <K extends KeysOf<T, string>>(field: K) => ({
    name: field,
    value: values[field] as string,
    error: errors[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => update(field, event.target.value as T[K]),
  });

  /** The props of a checkbox bound to `field`. */
  const checkbox = <K extends KeysOf<T, boolean>>(field: K) => ({
    name: field,
    checked: values[field] as boolean,
    error: errors[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => update(field, event.target.checked as T[K]),
  });

  /**
   * A submit handler: checks the rules, then runs `send`. `send` may refuse with messages of its
   * own (they show like the rules'); when it throws, the error's message (or `failure`) shows above
   * the form. After a successful `send` the form stays busy: the caller navigates away.
   */
  const onSubmit =
    (send: (values: T) => Promise<FieldErrors<T> | void>, failure: string) =>
    async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setAttempted(true);
      const invalid = validate(rules, values);
      setErrors(invalid ?? {});
      if (invalid) return;
      setSubmitting(true);
      setServerError(null);
      try {
        const refused = await send(values);
        if (refused) {
          setErrors(refused);
          setSubmitting(false);
        }
      } catch (error) {
        setServerError(errorMessage(error, failure));
        setSubmitting(false);
      }
    };

  return { values, submitting, serverError, text, checkbox, onSubmit };
}

import { z } from 'zod';

/** Spec section 5, with its exact messages. */
const email = z.email({ error: 'Invalid email address' });
const password = z.string().min(6, { error: 'Password must be at least 6 characters' });

export const loginFormSchema = z.object({
  email,
  password,
  rememberMe: z.boolean(),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

export const registerFormSchema = z
  .object({
    email,
    password,
    confirmPassword: z.string(),
    acceptTerms: z.boolean().refine((accepted) => accepted, { error: 'You must accept the terms and conditions' }),
  })
  .refine((form) => form.password === form.confirmPassword, {
    error: "Passwords don't match",
    path: ['confirmPassword'],
    // Check the match even while other fields are invalid, so every message shows at once.
    when: () => true,
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

export type FieldErrors<T> = Partial<Record<keyof T, string>>;

/** The first message per field, or null when the form is valid. */
export function validate<T extends object>(schema: z.ZodType<T>, values: T): FieldErrors<T> | null {
  const result = schema.safeParse(values);
  if (result.success) return null;
  const errors: FieldErrors<T> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof T | undefined;
    if (field !== undefined && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}

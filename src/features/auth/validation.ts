import { z } from 'zod';

const email = z.email({ error: 'Invalid email address' });
/**
 * Signing in keeps the earlier 6-character minimum: every existing account has at least that
 * (new ones at least 8), and the sign-in form never judges strength, so no one is locked out.
 */
const password = z.string().min(6, { error: 'Password must be at least 6 characters' });
/** A new password: at least 8 characters (the contract's minimum); its strength is rated separately. */
const newPassword = z.string().min(8, { error: 'Password must be at least 8 characters' });

export const loginFormSchema = z.object({
  email,
  password,
  rememberMe: z.boolean(),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

export const registerFormSchema = z
  .object({
    email,
    password: newPassword,
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

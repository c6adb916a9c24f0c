// Plain checks, not a schema library: these forms are on the first screen a visitor loads, and
// zod (with the API schemas) loads later, on demand. The email pattern is zod's own
// (`z.email()`), so the forms accept exactly what they accepted before.
const EMAIL = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export interface LoginForm {
  email: string;
  password: string;
  rememberMe: boolean;
}

export interface RegisterForm {
  email: string;
  password: string;
  confirmPassword: string;
  acceptTerms: boolean;
}

/** A form's rules: every broken rule as [field, message], in the order they should show. */
export type FormRules<T> = (values: T) => [keyof T, string][];

const emailRule = (email: string): ['email', string][] =>
  EMAIL.test(email) ? [] : [['email', 'Invalid email address']];

/**
 * The sign-in rules, with their exact messages. Signing in keeps the earlier 6-character minimum:
 * every existing account has at least that (new ones at least 8), and the sign-in form never
 * judges strength, so no one is locked out.
 */
export const loginFormSchema: FormRules<LoginForm> = (values) => [
  ...emailRule(values.email),
  ...(values.password.length >= 6
    ? []
    : [['password', 'Password must be at least 6 characters'] as [keyof LoginForm, string]]),
];

/** The sign-up rules: a new password has at least 8 characters; every message shows at once, the password match included. */
export const registerFormSchema: FormRules<RegisterForm> = (values) => [
  ...emailRule(values.email),
  ...(values.password.length >= 8
    ? []
    : [['password', 'Password must be at least 8 characters'] as [keyof RegisterForm, string]]),
  ...(values.acceptTerms
    ? []
    : [['acceptTerms', 'You must accept the terms and conditions'] as [keyof RegisterForm, string]]),
  ...(values.password === values.confirmPassword
    ? []
    : [['confirmPassword', "Passwords don't match"] as [keyof RegisterForm, string]]),
];

export interface ForgotPasswordForm {
  email: string;
}

export const forgotPasswordSchema: FormRules<ForgotPasswordForm> = (values) => emailRule(values.email);

export interface NewPasswordForm {
  password: string;
  confirmPassword: string;
}

const newPasswordRules = (password: string, confirm: string): [keyof NewPasswordForm, string][] => [
  ...(password.length >= 8
    ? []
    : [['password', 'Password must be at least 8 characters'] as [keyof NewPasswordForm, string]]),
  ...(password === confirm ? [] : [['confirmPassword', "Passwords don't match"] as [keyof NewPasswordForm, string]]),
];

/** A new password chosen on the reset page: the sign-up rules for a password. */
export const newPasswordSchema: FormRules<NewPasswordForm> = (values) =>
  newPasswordRules(values.password, values.confirmPassword);

export interface ChangePasswordForm extends NewPasswordForm {
  currentPassword: string;
}

export const changePasswordSchema: FormRules<ChangePasswordForm> = (values) => [
  ...(values.currentPassword === ''
    ? [['currentPassword', 'Enter your current password'] as [keyof ChangePasswordForm, string]]
    : []),
  ...newPasswordRules(values.password, values.confirmPassword),
];

export type FieldErrors<T> = Partial<Record<keyof T, string>>;

/** The first message per field, or null when the form is valid. */
export function validate<T extends object>(rules: FormRules<T>, values: T): FieldErrors<T> | null {
  const broken = rules(values);
  if (broken.length === 0) return null;
  const errors: FieldErrors<T> = {};
  for (const [field, message] of broken) errors[field] ??= message;
  return errors;
}

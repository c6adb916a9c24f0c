import { z } from 'zod';
import { loginFormSchema, registerFormSchema, validate } from './validation';

// The forms check by hand (zod stays off the first screen); they must accept and reject exactly
// what zod's own rules with the same messages do.
const zodLogin = z.object({
  email: z.email({ error: 'Invalid email address' }),
  password: z.string().min(6, { error: 'Password must be at least 6 characters' }),
  rememberMe: z.boolean(),
});

const EMAILS = [
  'reader@example.com',
  'a.b-c+d_e@mail.example.co.uk',
  "o'neil@example.org",
  'x@y.io',
  '',
  'no-at-sign',
  '@example.com',
  'a@b',
  'a@b.c',
  'a..b@example.com',
  '.a@example.com',
  'a.@example.com',
  'a@-example.com',
  'a@example..com',
  'a b@example.com',
  'Ünïcode@example.com',
  'a@exa_mple.com',
  'a@example.com ',
];

describe('form validation', () => {
  it.each(EMAILS)('judges the email %j as zod.email() does', (email) => {
    const values = { email, password: 'secret1', rememberMe: false };
    const expected = zodLogin.safeParse(values).success ? null : { email: 'Invalid email address' };
    expect(validate(loginFormSchema, values)).toEqual(expected);
  });

  it('sign-in: the first message per field', () => {
    expect(validate(loginFormSchema, { email: 'bad', password: '123', rememberMe: true })).toEqual({
      email: 'Invalid email address',
      password: 'Password must be at least 6 characters',
    });
    expect(validate(loginFormSchema, { email: 'a@example.com', password: '123456', rememberMe: false })).toBeNull();
  });

  it('sign-up: terms and the password match are checked even while other fields are invalid', () => {
    expect(
      validate(registerFormSchema, { email: 'x', password: '12', confirmPassword: '13', acceptTerms: false }),
    ).toEqual({
      email: 'Invalid email address',
      password: 'Password must be at least 8 characters',
      acceptTerms: 'You must accept the terms and conditions',
      confirmPassword: "Passwords don't match",
    });
    expect(
      validate(registerFormSchema, {
        email: 'a@example.com',
        password: 'secret12',
        confirmPassword: 'secret12',
        acceptTerms: true,
      }),
    ).toBeNull();
    // A new password needs 8 characters; signing in still takes the 6 that older accounts have.
    expect(
      validate(registerFormSchema, {
        email: 'a@example.com',
        password: 'secret1',
        confirmPassword: 'secret1',
        acceptTerms: true,
      }),
    ).toEqual({ password: 'Password must be at least 8 characters' });
  });
});

// Provider states shared by the consumer tests (given) and the provider's state handlers, so the
// two can never drift apart. Parameters travel with the state, not in its name.
export const states = {
  signupEnabled: 'signup is enabled',
  signupDisabled: 'the server runs in production with signup disabled',
  noAccount: 'no account exists for an email',
  accountExists: 'an account exists',
  signedIn: 'a user is signed in',
} as const;

export const reader = { email: 'reader@example.com', password: 'correct-horse-battery' } as const;
export const newcomer = { email: 'new.reader@example.com', password: 'a-long-passphrase' } as const;

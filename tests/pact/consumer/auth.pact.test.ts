import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, errorMessage } from '../../../src/api/errors';
import { getCurrentUser, login, register } from '../../../src/api/gen/endpoints/auth';
import { getEnvironment } from '../../../src/api/gen/endpoints/environment';
import { newcomer, reader, states } from '../states';
import { errorBody, isoTimestamp, lectioPact, useMockServer } from './pact';

const { like, uuid, boolean, integer, fromProviderState, string } = MatchersV3;
const pact = lectioPact();
const json = { 'Content-Type': 'application/json' };

describe('environment', () => {
  it('tells the SPA that signup is open outside production', () =>
    pact
      .addInteraction()
      .given(states.signupEnabled)
      .uponReceiving('a request for the environment')
      .withRequest('GET', '/api/v1/environment')
      .willRespondWith(200, (res) =>
        res.jsonBody({
          environment: 'dev',
          features: { signup_enabled: true, debug_mode: boolean(true), demo_mode: boolean(true) },
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url);
        const env = await getEnvironment();
        expect(env.environment).toBe('dev');
        expect(env.features.signup_enabled).toBe(true);
      }));

  it('tells the SPA that signup is closed in production', () =>
    pact
      .addInteraction()
      .given(states.signupDisabled)
      .uponReceiving('a request for the environment in production')
      .withRequest('GET', '/api/v1/environment')
      .willRespondWith(200, (res) =>
        res.jsonBody({
          environment: 'production',
          features: { signup_enabled: false, debug_mode: boolean(false), demo_mode: boolean(true) },
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url);
        const env = await getEnvironment();
        expect(env.features.signup_enabled).toBe(false);
      }));
});

describe('register', () => {
  it('creates an account', () =>
    pact
      .addInteraction()
      .given(states.noAccount, { email: newcomer.email })
      .uponReceiving('a registration')
      .withRequest('POST', '/api/v1/auth/register', (req) => req.headers(json).jsonBody(newcomer))
      .willRespondWith(201, (res) =>
        res.jsonBody({
          id: uuid('5a0b8a7e-2f3c-4d5e-9f60-718293a4b5c6'),
          email: newcomer.email,
          created_at: isoTimestamp(),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url);
        const user = await register(newcomer);
        expect(user.email).toBe(newcomer.email);
      }));

  it('refuses an email that is already registered, with the reason', () =>
    pact
      .addInteraction()
      .given(states.accountExists, { email: reader.email, password: reader.password })
      .uponReceiving('a registration for a taken email')
      .withRequest('POST', '/api/v1/auth/register', (req) => req.headers(json).jsonBody(reader))
      .willRespondWith(409, (res) => res.jsonBody(errorBody('Email already registered')))
      .executeTest(async (server) => {
        useMockServer(server.url);
        const error = await register(reader).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ApiError);
        expect(errorMessage(error, 'Registration failed')).toBe('Email already registered');
      }));

  it('refuses a password under 8 characters, naming the field', () =>
    pact
      .addInteraction()
      .given(states.signupEnabled)
      .uponReceiving('a registration with a short password')
      .withRequest('POST', '/api/v1/auth/register', (req) =>
        req.headers(json).jsonBody({ email: newcomer.email, password: 'abc' }),
      )
      .willRespondWith(422, (res) =>
        res.jsonBody({
          ...errorBody('password: Password must be at least 8 characters'),
          errors: MatchersV3.eachLike({ field: 'password', message: string('Password must be at least 8 characters') }),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url);
        const error = await register({ email: newcomer.email, password: 'abc' }).catch((e: unknown) => e);
        expect((error as ApiError).status).toBe(422);
        expect(errorMessage(error, 'Registration failed')).toMatch(/password/i);
      }));

  it('refuses a common password with the reason to show', () =>
    pact
      .addInteraction()
      .given(states.noAccount, { email: newcomer.email })
      .uponReceiving('a registration with a common password')
      .withRequest('POST', '/api/v1/auth/register', (req) =>
        req.headers(json).jsonBody({ email: newcomer.email, password: 'password' }),
      )
      .willRespondWith(422, (res) =>
        res.jsonBody(
          errorBody(
            'This password is too easy to guess. This is a heavily used password. Add more words that are less common.',
          ),
        ),
      )
      .executeTest(async (server) => {
        useMockServer(server.url);
        const error = await register({ email: newcomer.email, password: 'password' }).catch((e: unknown) => e);
        expect((error as ApiError).status).toBe(422);
        expect(errorMessage(error, 'Registration failed')).toMatch(/^This password is too easy to guess\./);
      }));

  it('is refused with a clear reason when signup is disabled', () =>
    pact
      .addInteraction()
      .given(states.signupDisabled)
      .uponReceiving('a registration while signup is disabled')
      .withRequest('POST', '/api/v1/auth/register', (req) => req.headers(json).jsonBody(newcomer))
      .willRespondWith(403, (res) => res.jsonBody(errorBody('Sign-up is disabled on this server')))
      .executeTest(async (server) => {
        useMockServer(server.url);
        const error = await register(newcomer).catch((e: unknown) => e);
        expect((error as ApiError).status).toBe(403);
        expect(errorMessage(error, 'Registration failed')).toMatch(/disabled/i);
      }));
});

describe('login', () => {
  it('answers a bearer token for the right password', () =>
    pact
      .addInteraction()
      .given(states.accountExists, { email: reader.email, password: reader.password })
      .uponReceiving('a login with the right password')
      .withRequest('POST', '/api/v1/auth/login', (req) => req.headers(json).jsonBody(reader))
      .willRespondWith(200, (res) =>
        res.jsonBody({
          access_token: like('eyJhbGciOiJIUzI1NiJ9.e30.sig'),
          token_type: 'bearer',
          expires_in: integer(28800),
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url);
        const token = await login(reader);
        expect(token.access_token.length).toBeGreaterThan(10);
        expect(token.token_type).toBe('bearer');
      }));

  it('refuses a wrong password with a message to show', () =>
    pact
      .addInteraction()
      .given(states.accountExists, { email: reader.email, password: reader.password })
      .uponReceiving('a login with a wrong password')
      .withRequest('POST', '/api/v1/auth/login', (req) =>
        req.headers(json).jsonBody({ email: reader.email, password: 'not-the-password' }),
      )
      .willRespondWith(401, (res) => res.jsonBody(errorBody('Incorrect email or password')))
      .executeTest(async (server) => {
        const onUnauthorized = vi.fn();
        useMockServer(server.url, null, onUnauthorized);
        const error = await login({ email: reader.email, password: 'not-the-password' }).catch((e: unknown) => e);
        expect(errorMessage(error, 'Login failed')).toBe('Incorrect email or password');
        // A failed sign-in is not a lost session: nothing to clear.
        expect(onUnauthorized).not.toHaveBeenCalled();
      }));
});

describe('current user', () => {
  it('answers the signed-in user for a valid token', () =>
    pact
      .addInteraction()
      .given(states.signedIn, { email: reader.email, password: reader.password })
      .uponReceiving('a request for the current user')
      .withRequest('GET', '/api/v1/auth/me', (req) =>
        req.headers({ Authorization: fromProviderState('Bearer ${token}', 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig') }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({
          id: uuid('5a0b8a7e-2f3c-4d5e-9f60-718293a4b5c6'),
          email: reader.email,
          created_at: isoTimestamp(),
          // What the reader's files take of their storage quota, in bytes (the account page's meter).
          storage: { used_bytes: integer(12_582_912), quota_bytes: integer(524_288_000) },
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, 'eyJhbGciOiJIUzI1NiJ9.e30.sig');
        const me = await getCurrentUser();
        expect(me.email).toBe(reader.email);
        expect(me.storage).toEqual({ used_bytes: 12_582_912, quota_bytes: 524_288_000 });
      }));

  it('answers 401 for an expired or invalid token, and the SPA drops the session', () =>
    pact
      .addInteraction()
      .given(states.signupEnabled)
      .uponReceiving('a request for the current user with an invalid token')
      .withRequest('GET', '/api/v1/auth/me', (req) => req.headers({ Authorization: 'Bearer not-a-real-token' }))
      .willRespondWith(401, (res) => res.jsonBody(errorBody('Invalid token')))
      .executeTest(async (server) => {
        const onUnauthorized = vi.fn();
        useMockServer(server.url, 'not-a-real-token', onUnauthorized);
        const error = await getCurrentUser().catch((e: unknown) => e);
        expect((error as ApiError).status).toBe(401);
        expect(onUnauthorized).toHaveBeenCalledTimes(1);
      }));
});

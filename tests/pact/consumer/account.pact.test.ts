import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { ApiError, errorMessage } from '../../../src/api/errors';
import {
  changePassword,
  confirmPasswordReset,
  deleteAccount,
  getPreferences,
  putPreferences,
  requestPasswordReset,
  signOutEverywhere,
} from '../../../src/api/gen/endpoints/auth';
import { getEnvironment } from '../../../src/api/gen/endpoints/environment';
import { reader, states } from '../states';
import { errorBody, lectioPact, useMockServer } from './pact';

const { boolean, fromProviderState, integer, like } = MatchersV3;
const pact = lectioPact();
const json = { 'Content-Type': 'application/json' };
const EXAMPLE_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.e30.sig';
const bearer = () => ({ Authorization: fromProviderState('Bearer ${token}', `Bearer ${EXAMPLE_TOKEN}`) });

// Each call that changes an account works on an account of its own, so the others' states hold.
const changer = { email: 'changer@example.com', password: 'correct-horse-battery' } as const;
const traveller = { email: 'traveller@example.com', password: 'correct-horse-battery' } as const;
const leaver = { email: 'leaver@example.com', password: 'correct-horse-battery' } as const;
const chooser = { email: 'chooser@example.com', password: 'correct-horse-battery' } as const;
const forgetful = { email: 'forgetful@example.com', password: 'correct-horse-battery' } as const;
const voicePicker = { email: 'voice.picker@example.com', password: 'correct-horse-battery' } as const;
const pacer = { email: 'pacer@example.com', password: 'correct-horse-battery' } as const;

describe('change password', () => {
  it('answers a new token for this session', () =>
    pact
      .addInteraction()
      .given(states.signedIn, changer)
      .uponReceiving('a password change with the right current password')
      .withRequest('PUT', '/api/v1/auth/password', (req) =>
        req
          .headers({ ...json, ...bearer() })
          .jsonBody({ current_password: changer.password, new_password: 'violet lantern orchard' }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({ access_token: like(EXAMPLE_TOKEN), token_type: 'bearer', expires_in: integer(28800) }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const answer = await changePassword({
          current_password: changer.password,
          new_password: 'violet lantern orchard',
        });
        expect(answer.access_token.length).toBeGreaterThan(10);
      }));

  it('refuses a wrong current password with a message to show', () =>
    pact
      .addInteraction()
      .given(states.signedIn, reader)
      .uponReceiving('a password change with a wrong current password')
      .withRequest('PUT', '/api/v1/auth/password', (req) =>
        req
          .headers({ ...json, ...bearer() })
          .jsonBody({ current_password: 'not-my-password', new_password: 'violet lantern orchard' }),
      )
      .willRespondWith(422, (res) => res.jsonBody(errorBody('Your current password is not right')))
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const error = await changePassword({
          current_password: 'not-my-password',
          new_password: 'violet lantern orchard',
        }).catch((e: unknown) => e);
        expect((error as ApiError).status).toBe(422);
        expect(errorMessage(error, 'failed')).toBe('Your current password is not right');
      }));
});

describe('sign out everywhere', () => {
  it('answers 204', () =>
    pact
      .addInteraction()
      .given(states.signedIn, traveller)
      .uponReceiving('a request to sign out everywhere')
      .withRequest('DELETE', '/api/v1/auth/sessions', (req) => req.headers(bearer()))
      .willRespondWith(204)
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        // Resolves (an error status would throw an ApiError).
        await signOutEverywhere();
      }));
});

describe('preferences', () => {
  it('answers the saved default voice and speed', () =>
    pact
      .addInteraction()
      .given(states.preferencesSaved, { ...chooser, provider: 'offline', voice_id: 'en-us+f3', default_speed: 1.5 })
      .uponReceiving('a request for the preferences')
      .withRequest('GET', '/api/v1/auth/preferences', (req) => req.headers(bearer()))
      .willRespondWith(200, (res) =>
        res.jsonBody({ default_voice: { provider: 'offline', voice_id: 'en-us+f3' }, default_speed: 1.5 }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const preferences = await getPreferences();
        expect(preferences.default_voice).toEqual({ provider: 'offline', voice_id: 'en-us+f3' });
        expect(preferences.default_speed).toBe(1.5);
      }));

  it('saves a default voice and leaves the saved speed', () =>
    pact
      .addInteraction()
      .given(states.preferencesSaved, { ...voicePicker, default_speed: 1.25 })
      .uponReceiving('a new default voice alone')
      .withRequest('PUT', '/api/v1/auth/preferences', (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody({ default_voice: { provider: 'openai', voice_id: 'nova' } }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({ default_voice: { provider: 'openai', voice_id: 'nova' }, default_speed: 1.25 }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const saved = await putPreferences({ default_voice: { provider: 'openai', voice_id: 'nova' } });
        expect(saved.default_voice?.voice_id).toBe('nova');
        expect(saved.default_speed).toBe(1.25);
      }));

  it('saves a default speed and leaves the saved voice', () =>
    pact
      .addInteraction()
      .given(states.preferencesSaved, { ...pacer, provider: 'offline', voice_id: 'en-us+f3' })
      .uponReceiving('a new default speed alone')
      .withRequest('PUT', '/api/v1/auth/preferences', (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody({ default_speed: 1.75 }),
      )
      .willRespondWith(200, (res) =>
        res.jsonBody({ default_voice: { provider: 'offline', voice_id: 'en-us+f3' }, default_speed: 1.75 }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const saved = await putPreferences({ default_speed: 1.75 });
        expect(saved.default_speed).toBe(1.75);
        expect(saved.default_voice).toEqual({ provider: 'offline', voice_id: 'en-us+f3' });
      }));
});

describe('delete account', () => {
  it('answers 204 when the email confirms it', () =>
    pact
      .addInteraction()
      .given(states.signedIn, leaver)
      .uponReceiving('an account deletion confirmed with its email')
      .withRequest('POST', '/api/v1/auth/account/delete', (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody({ email: leaver.email }),
      )
      .willRespondWith(204)
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        await deleteAccount({ email: leaver.email });
      }));

  it('refuses another email with the reason to show', () =>
    pact
      .addInteraction()
      .given(states.signedIn, reader)
      .uponReceiving('an account deletion confirmed with the wrong email')
      .withRequest('POST', '/api/v1/auth/account/delete', (req) =>
        req.headers({ ...json, ...bearer() }).jsonBody({ email: 'someone.else@example.com' }),
      )
      .willRespondWith(422, (res) =>
        res.jsonBody(errorBody("That is not this account's email. Type it exactly to delete the account.")),
      )
      .executeTest(async (server) => {
        useMockServer(server.url, EXAMPLE_TOKEN);
        const error = await deleteAccount({ email: 'someone.else@example.com' }).catch((e: unknown) => e);
        expect((error as ApiError).status).toBe(422);
      }));
});

describe('forgot password', () => {
  it('tells the SPA whether reset links are emailed', () =>
    pact
      .addInteraction()
      .given(states.passwordResetByEmail, forgetful)
      .uponReceiving('a request for the environment where reset links are emailed')
      .withRequest('GET', '/api/v1/environment')
      .willRespondWith(200, (res) =>
        res.jsonBody({
          environment: like('production'),
          features: {
            signup_enabled: boolean(false),
            debug_mode: boolean(false),
            demo_mode: boolean(true),
            password_reset_email: true,
          },
        }),
      )
      .executeTest(async (server) => {
        useMockServer(server.url);
        const env = await getEnvironment();
        expect(env.features.password_reset_email).toBe(true);
      }));

  it('answers 202 to a reset request', () =>
    pact
      .addInteraction()
      .given(states.passwordResetByEmail, forgetful)
      .uponReceiving('a password reset request')
      .withRequest('POST', '/api/v1/auth/password-reset', (req) =>
        req.headers(json).jsonBody({ email: forgetful.email }),
      )
      .willRespondWith(202)
      .executeTest(async (server) => {
        useMockServer(server.url);
        await requestPasswordReset({ email: forgetful.email });
      }));

  it('is refused with the reason where the server sends no email', () =>
    pact
      .addInteraction()
      .given(states.signupEnabled)
      .uponReceiving('a password reset request where no email is sent')
      .withRequest('POST', '/api/v1/auth/password-reset', (req) =>
        req.headers(json).jsonBody({ email: forgetful.email }),
      )
      .willRespondWith(403, (res) =>
        res.jsonBody(errorBody('This server does not send email. Ask its operator for a link to set a new password.')),
      )
      .executeTest(async (server) => {
        useMockServer(server.url);
        const error = await requestPasswordReset({ email: forgetful.email }).catch((e: unknown) => e);
        expect((error as ApiError).status).toBe(403);
      }));

  it("sets a new password with a link's token", () =>
    pact
      .addInteraction()
      .given(states.passwordResetLink, forgetful)
      .uponReceiving("a new password with a reset link's token")
      .withRequest('POST', '/api/v1/auth/password-reset/confirm', (req) =>
        req.headers(json).jsonBody({
          token: fromProviderState('${token}', 'Zm9yZ290LXBhc3N3b3JkLXRva2VuLWV4YW1wbGU'),
          password: 'violet lantern orchard',
        }),
      )
      .willRespondWith(204)
      .executeTest(async (server) => {
        useMockServer(server.url);
        await confirmPasswordReset({
          token: 'Zm9yZ290LXBhc3N3b3JkLXRva2VuLWV4YW1wbGU',
          password: 'violet lantern orchard',
        });
      }));

  it('refuses a used or unknown token with the reason to show', () =>
    pact
      .addInteraction()
      .given(states.signupEnabled)
      .uponReceiving('a new password with an unknown reset token')
      .withRequest('POST', '/api/v1/auth/password-reset/confirm', (req) =>
        req.headers(json).jsonBody({ token: 'no-such-token', password: 'violet lantern orchard' }),
      )
      .willRespondWith(422, (res) =>
        res.jsonBody(errorBody('This reset link has expired or was already used. Ask for a new one.')),
      )
      .executeTest(async (server) => {
        useMockServer(server.url);
        const error = await confirmPasswordReset({ token: 'no-such-token', password: 'violet lantern orchard' }).catch(
          (e: unknown) => e,
        );
        expect(errorMessage(error, 'failed')).toBe(
          'This reset link has expired or was already used. Ask for a new one.',
        );
      }));
});

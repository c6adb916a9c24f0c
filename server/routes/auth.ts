import type { FastifyRequest } from 'fastify';
import type * as z from 'zod';
import type { AccountDeletion } from '../auth/account-deletion';
import { resetLink, resetMail, type Mailer } from '../auth/mail';
import { describeWait, normalizeEmail, type AuthService } from '../auth/service';
import type { DefaultVoice, Preferences, User, UserRepository } from '../auth/users';
import {
  ChangePasswordBody,
  ChangePasswordResponse,
  ConfirmPasswordResetBody,
  DeleteAccountBody,
  GetCurrentUserResponse,
  GetPreferencesResponse,
  LoginBody,
  LoginResponse,
  PutPreferencesBody,
  PutPreferencesResponse,
  RegisterBody,
  RegisterResponse,
  RequestPasswordResetBody,
} from '../gen/contract.zod';
import type { Provider } from '../jobs/types';
import { requireUser } from '../http/auth-guard';
import { clientKey } from '../http/client-address';
import { HttpError } from '../http/errors';
import type { RoutePlugin } from './types';

function userDto(user: User) {
  return { id: user.id, email: user.email, created_at: user.createdAt.toISOString() };
}

/** Accept " Ann@Example.com " as Ann's address: trim before the contract's email check. */
async function trimEmail(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (body !== null && typeof body === 'object' && typeof (body as { email?: unknown }).email === 'string') {
    request.body = { ...body, email: (body as { email: string }).email.trim() };
  }
}

export interface AuthRateLimits {
  /** Requests per minute per client address, on each of the sign-in and sign-up routes. */
  perMinute: number;
  /** Sign-up requests per hour per client address. */
  signupPerHour: number;
}

/** What a reader's files take of their storage quota (the jobs module counts it: ../jobs/quotas.ts). */
export type StorageUse = (userId: string) => Promise<{ usedBytes: number; quotaBytes: number }>;

/** Emailed password reset links: the mailer, where the links point, and how long and how often. */
interface ResetMail {
  mailer: Mailer;
  /** PUBLIC_URL: the origin the emailed link opens (never the request's Host, which a caller picks). */
  origin: string;
  ttlSeconds: number;
  perEmailPerHour: number;
}

export interface AccountDeps {
  deleteAccount: AccountDeletion;
  preferences: Pick<UserRepository, 'preferences' | 'setPreferences'>;
  /** Refuses (DomainError 'invalid') a voice GET /voices does not offer; the voice catalog's choose(). */
  checkVoice: (provider: Provider, voiceId: string | undefined) => Promise<unknown>;
  /** Null when this server sends no email (no SMTP_URL). */
  resetMail: ResetMail | null;
}

function voiceDto(voice: DefaultVoice | null) {
  if (voice === null) return null;
  return { provider: voice.provider as Provider, ...(voice.voiceId !== undefined && { voice_id: voice.voiceId }) };
}

function preferencesDto(preferences: Preferences) {
  return {
    default_voice: voiceDto(preferences.defaultVoice),
    // Only the contract's speeds are ever saved (the request schema admits no other).
    default_speed: preferences.defaultSpeed as z.output<typeof PutPreferencesResponse>['default_speed'],
  };
}

type RouteApp = Parameters<RoutePlugin>[0];
type PerMinute = { max: number; timeWindow: number };

/** Signing up and signing in. */
function signInRoutes(app: RouteApp, auth: AuthService, limits: AuthRateLimits, perMinute: PerMinute): void {
  const signupsThisHour = app.createRateLimit({ max: limits.signupPerHour, timeWindow: 3_600_000 });
  app.post(
    '/auth/register',
    {
      config: { public: true, rateLimit: perMinute },
      async onRequest(request) {
        const limit = await signupsThisHour(request);
        if (!limit.isAllowed && limit.isExceeded) {
          const wait = limit.ttlInSeconds;
          throw new HttpError(429, `Too many sign-ups from your network. Try again in ${describeWait(wait)}.`, {
            headers: { 'retry-after': String(wait) },
          });
        }
      },
      preValidation: trimEmail,
      schema: { body: RegisterBody, response: { 201: RegisterResponse } },
    },
    async (request, reply) => {
      const user = await auth.register(request.body.email, request.body.password, clientKey(request.ip));
      return reply.code(201).send(userDto(user));
    },
  );

  app.post(
    '/auth/login',
    {
      config: { public: true, rateLimit: perMinute },
      preValidation: trimEmail,
      schema: { body: LoginBody, response: { 200: LoginResponse } },
    },
    async (request) => {
      const { token, expiresIn } = await auth.login(request.body.email, request.body.password, clientKey(request.ip));
      return { access_token: token, token_type: 'bearer' as const, expires_in: expiresIn };
    },
  );
}

/** The signed-in reader's account: who they are, their password, sessions, preferences; deleting it. */
function accountRoutes(
  app: RouteApp,
  {
    auth,
    storageUse,
    account,
    perMinute,
  }: { auth: AuthService; storageUse: StorageUse; account: AccountDeps; perMinute: PerMinute },
): void {
  // The user as sign-up answers it, and what their files take of their storage quota.
  app.get('/auth/me', { schema: { response: { 200: GetCurrentUserResponse } } }, async (request) => {
    const user = requireUser(request);
    const { usedBytes, quotaBytes } = await storageUse(user.id);
    return { ...userDto(user), storage: { used_bytes: usedBytes, quota_bytes: quotaBytes } };
  });

  // A new password for a reader who knows the current one; the other sessions are signed out.
  app.put(
    '/auth/password',
    {
      config: { rateLimit: perMinute },
      schema: { body: ChangePasswordBody, response: { 200: ChangePasswordResponse } },
    },
    async (request) => {
      const user = requireUser(request);
      const { current_password, new_password } = request.body;
      const { token, expiresIn } = await auth.changePassword(
        user,
        current_password,
        new_password,
        clientKey(request.ip),
      );
      return { access_token: token, token_type: 'bearer' as const, expires_in: expiresIn };
    },
  );

  app.delete('/auth/sessions', async (request, reply) => {
    await auth.signOutEverywhere(requireUser(request).id);
    return reply.code(204).send();
  });

  app.get('/auth/preferences', { schema: { response: { 200: GetPreferencesResponse } } }, async (request) => {
    return preferencesDto(await account.preferences.preferences(requireUser(request).id));
  });

  app.put(
    '/auth/preferences',
    { schema: { body: PutPreferencesBody, response: { 200: PutPreferencesResponse } } },
    async (request) => {
      // A partial update: a field the body leaves out keeps its saved value. The contract admits
      // only the player's speeds for default_speed (422 naming them otherwise).
      const user = requireUser(request);
      const { default_voice: chosen, default_speed: speed } = request.body;
      const patch: Partial<Preferences> = {};
      if (chosen === null) patch.defaultVoice = null;
      else if (chosen !== undefined) {
        const voiceId = chosen.voice_id?.trim() || undefined;
        await account.checkVoice(chosen.provider, voiceId);
        patch.defaultVoice = { provider: chosen.provider, ...(voiceId !== undefined && { voiceId }) };
      }
      if (speed !== undefined) patch.defaultSpeed = speed;
      return preferencesDto(await account.preferences.setPreferences(user.id, patch));
    },
  );

  // The reader confirms by typing the account's email: a stolen session alone cannot delete it
  // without knowing whose account it is, and a slip of the finger cannot either.
  app.post(
    '/auth/account/delete',
    { config: { rateLimit: perMinute }, schema: { body: DeleteAccountBody } },
    async (request, reply) => {
      const user = requireUser(request);
      if (normalizeEmail(request.body.email) !== user.email) {
        throw new HttpError(422, "That is not this account's email. Type it exactly to delete the account.");
      }
      await account.deleteAccount(user.id);
      return reply.code(204).send();
    },
  );
}

/** Forgot password: a reset link emailed, and the new password it sets. */
function passwordResetRoutes(app: RouteApp, auth: AuthService, account: AccountDeps, perMinute: PerMinute): void {
  // Forgot password: the answer is the same whether or not the email has an account.
  const resetsFromThisAddress = app.createRateLimit({
    max: 10 * (account.resetMail?.perEmailPerHour ?? 3),
    timeWindow: 3_600_000,
  });
  const resetsToThisEmail = app.createRateLimit({
    max: account.resetMail?.perEmailPerHour ?? 3,
    timeWindow: 3_600_000,
    keyGenerator: (request) => `reset:${normalizeEmail((request.body as { email: string }).email)}`,
  });
  app.post(
    '/auth/password-reset',
    {
      config: { public: true, rateLimit: perMinute },
      preValidation: trimEmail,
      schema: { body: RequestPasswordResetBody },
    },
    async (request, reply) => {
      const mail = account.resetMail;
      if (mail === null) {
        throw new HttpError(403, 'This server does not send email. Ask its operator for a link to set a new password.');
      }
      const fromAddress = await resetsFromThisAddress(request);
      if (!fromAddress.isAllowed && fromAddress.isExceeded) {
        const wait = fromAddress.ttlInSeconds;
        throw new HttpError(429, `Too many reset requests from your network. Try again in ${describeWait(wait)}.`, {
          headers: { 'retry-after': String(wait) },
        });
      }
      // Past the per-email limit nothing is sent, and the answer stays the same.
      const toEmail = await resetsToThisEmail(request);
      if (toEmail.isAllowed || !toEmail.isExceeded) {
        // Looked up and sent after answering, so the time to answer does not tell whether the account exists.
        const email = request.body.email;
        void (async () => {
          const reset = await auth.passwordResetToken(email);
          if (reset === null) return;
          const { subject, text } = resetMail(resetLink(mail.origin, reset.token), mail.ttlSeconds);
          await mail.mailer.send({ to: reset.email, subject, text });
        })().catch((err: unknown) => {
          request.log.error({ err }, 'the password reset email could not be sent');
        });
      }
      return reply.code(202).send();
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    { config: { public: true, rateLimit: perMinute }, schema: { body: ConfirmPasswordResetBody } },
    async (request, reply) => {
      await auth.resetPassword(request.body.token, request.body.password, clientKey(request.ip));
      return reply.code(204).send();
    },
  );
}

export const authRoutes: RoutePlugin<{
  auth: AuthService;
  limits: AuthRateLimits;
  storageUse: StorageUse;
  account: AccountDeps;
}> = async (app, { auth, limits, storageUse, account }) => {
  // Per-address request limits (@fastify/rate-limit, registered on the root app); the login
  // throttle and the hashing queue in the auth service come on top of them.
  const perMinute = { max: limits.perMinute, timeWindow: 60_000 };
  signInRoutes(app, auth, limits, perMinute);
  accountRoutes(app, { auth, storageUse, account, perMinute });
  passwordResetRoutes(app, auth, account, perMinute);
};

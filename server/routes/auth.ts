import type { FastifyRequest } from 'fastify';
import { describeWait, type AuthService } from '../auth/service';
import type { User } from '../auth/users';
import { GetCurrentUserResponse, LoginBody, LoginResponse, RegisterBody, RegisterResponse } from '../gen/contract.zod';
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

export const authRoutes: RoutePlugin<{ auth: AuthService; limits: AuthRateLimits; storageUse: StorageUse }> = async (
  app,
  { auth, limits, storageUse },
) => {
  // Per-address request limits (@fastify/rate-limit, registered on the root app); the login
  // throttle and the hashing queue in the auth service come on top of them.
  const perMinute = { max: limits.perMinute, timeWindow: 60_000 };
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

  // The user as sign-up answers it, and what their files take of their storage quota.
  app.get('/auth/me', { schema: { response: { 200: GetCurrentUserResponse } } }, async (request) => {
    const user = requireUser(request);
    const { usedBytes, quotaBytes } = await storageUse(user.id);
    return { ...userDto(user), storage: { used_bytes: usedBytes, quota_bytes: quotaBytes } };
  });
};

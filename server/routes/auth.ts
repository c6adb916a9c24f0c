import type { FastifyRequest } from 'fastify';
import type { AuthService } from '../auth/service';
import type { User } from '../auth/users';
import {
  GetCurrentUserResponse,
  LoginBody,
  LoginResponse,
  RegisterBody,
  RegisterResponse,
} from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
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

export const authRoutes: RoutePlugin<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/auth/register',
    { config: { public: true }, preValidation: trimEmail, schema: { body: RegisterBody, response: { 201: RegisterResponse } } },
    async (request, reply) => {
      const user = await auth.register(request.body.email, request.body.password);
      return reply.code(201).send(userDto(user));
    },
  );

  app.post(
    '/auth/login',
    { config: { public: true }, preValidation: trimEmail, schema: { body: LoginBody, response: { 200: LoginResponse } } },
    async (request) => {
      const { token, expiresIn } = await auth.login(request.body.email, request.body.password, request.ip);
      return { access_token: token, token_type: 'bearer' as const, expires_in: expiresIn };
    },
  );

  app.get('/auth/me', { schema: { response: { 200: GetCurrentUserResponse } } }, async (request) =>
    userDto(requireUser(request)),
  );
};

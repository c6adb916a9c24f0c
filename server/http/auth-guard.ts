import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../auth/service';
import type { User } from '../auth/users';
import { HttpError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes are protected by default; set `config: { public: true }` to let anyone call one. */
    public?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user on protected routes (null on public ones). Prefer requireUser(request). */
    user: User | null;
  }
}

/**
 * Installs "protected by default" on an encapsulated context: every route registered in it
 * (and its children) needs a valid bearer token unless its config says `public: true`.
 */
export function installAuthGuard(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    if (request.is404 || request.routeOptions.config.public === true) return;
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') throw new HttpError(401, 'Not authenticated');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match?.[1] === undefined) {
      throw new HttpError(401, "Invalid token: the Authorization header must be 'Bearer <token>'");
    }
    request.user = await auth.authenticate(match[1]);
  });
}

/** The signed-in user of a protected route. */
export function requireUser(request: FastifyRequest): User {
  if (request.user === null) throw new HttpError(401, 'Not authenticated');
  return request.user;
}

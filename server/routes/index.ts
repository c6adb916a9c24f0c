import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../auth/service';
import type { EnvironmentInfo } from '../environment/info';
import { installAuthGuard } from '../http/auth-guard';
import { authRoutes } from './auth';
import { environmentRoutes } from './environment';

export interface ApiDeps {
  auth: AuthService;
  environment: EnvironmentInfo;
}

/** Everything under /api/v1. Every route here needs a bearer token unless marked `public: true`. */
export function apiRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance) => {
    installAuthGuard(app, deps.auth);
    await app.register(environmentRoutes, { info: deps.environment });
    await app.register(authRoutes, { auth: deps.auth });
  };
}

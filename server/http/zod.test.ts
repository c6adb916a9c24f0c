import Fastify from 'fastify';
import * as z from 'zod';
import { installErrorHandler } from './errors';
import { createZodSerializerCompiler, zodValidatorCompiler } from './zod';

const Item = z.object({ id: z.uuid(), created_at: z.iso.datetime({ offset: true }) });
const Query = z.object({ page: z.int().min(1).default(1), top_level: z.boolean().default(false) });

async function appWith(strict: boolean, item: unknown) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(createZodSerializerCompiler({ strict, log: app.log }));
  installErrorHandler(app);
  app.get('/item', { schema: { response: { 200: Item } } }, async () => item);
  app.get('/list', { schema: { querystring: Query } }, async (request) => request.query);
  await app.ready();
  return app;
}

describe('contract checks on the wire', () => {
  const good = { id: '0b5c2f4e-8a51-4a8e-9d0f-6c1e2b3a4d5e', created_at: '2030-01-01T00:00:00.000Z' };

  it('sends only the fields of the contract', async () => {
    const app = await appWith(true, { ...good, password_hash: 'scrypt$...' });
    const res = await app.inject({ method: 'GET', url: '/item' });
    expect(res.json()).toEqual(good);
  });

  it('fails loudly in dev and tests when a response drifts from the contract', async () => {
    const app = await appWith(true, { ...good, created_at: '2030-01-01 00:00:00' });
    const res = await app.inject({ method: 'GET', url: '/item' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      detail: 'Internal server error',
      message: 'Internal server error',
      request_id: expect.any(String),
    });
  });

  it('still answers in production when a response drifts', async () => {
    const app = await appWith(false, { ...good, created_at: '2030-01-01 00:00:00' });
    const res = await app.inject({ method: 'GET', url: '/item' });
    expect(res.statusCode).toBe(200);
  });

  it('reads numbers and booleans from the query string, with defaults', async () => {
    const app = await appWith(true, good);
    expect((await app.inject({ method: 'GET', url: '/list?page=3&top_level=true' })).json()).toEqual({
      page: 3,
      top_level: true,
    });
    expect((await app.inject({ method: 'GET', url: '/list' })).json()).toEqual({ page: 1, top_level: false });
    const bad = await app.inject({ method: 'GET', url: '/list?page=0' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual([{ field: 'page', message: 'Page must be at least 1' }]);
  });

  it('names the values allowed when a number is not one of a fixed set', async () => {
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(zodValidatorCompiler);
    installErrorHandler(app);
    const Body = z.object({ speed: z.union([z.literal(1), z.literal(1.5), z.literal(null)]).optional() });
    app.put('/speed', { schema: { body: Body } }, async (request) => request.body);
    await app.ready();
    const res = await app.inject({ method: 'PUT', url: '/speed', payload: { speed: 3 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([{ field: 'speed', message: 'Speed must be one of 1, 1.5, null' }]);
  });
});

import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  installErrorHandling,
  problemFor,
  ProblemError,
  unavailableWhen,
  type ProblemMapping,
} from '../src/index.js';

class QuotaError extends Error {}
class OutageError extends Error {}

const quota: ProblemMapping = (error) =>
  error instanceof QuotaError
    ? { problem: problemFor('rateLimited', 'Slow down.'), headers: { 'retry-after': '7' } }
    : undefined;

describe('the one error handler', () => {
  let app: FastifyInstance;
  afterEach(() => app.close());

  async function appThrowing(error: Error): Promise<FastifyInstance> {
    app = Fastify({ logger: false });
    installErrorHandling(app, {
      notFoundDetail: 'No such thing.',
      mappings: [quota, unavailableWhen((candidate) => candidate instanceof OutageError)],
    });
    app.get('/fail', () => {
      throw error;
    });
    await app.ready();
    return app;
  }

  it('answers a mapped error with the problem and headers its mapping chose', async () => {
    const response = await (await appThrowing(new QuotaError())).inject('/fail');
    expect(response.statusCode).toBe(429);
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(response.headers['retry-after']).toBe('7');
    expect(response.json()).toEqual(problemFor('rateLimited', 'Slow down.'));
  });

  it('answers ProblemError as thrown, with WWW-Authenticate on a 401', async () => {
    const response = await (await appThrowing(new ProblemError('unauthorized', 'Key?'))).inject('/fail');
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="doctor-directory"');
    expect(response.json()).toEqual(problemFor('unauthorized', 'Key?'));
  });

  it('makes a backing service outage a 503, whether mapped or a connection failure', async () => {
    const unavailable = problemFor('unavailable', 'The service is temporarily unavailable; retry later.');
    const outage = await (await appThrowing(new OutageError('down'))).inject('/fail');
    expect(outage.statusCode).toBe(503);
    expect(outage.json()).toEqual(unavailable);
    await app.close();
    const refused = await (
      await appThrowing(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
    ).inject('/fail');
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual(unavailable);
  });

  it('gives any other error a generic body, and an unknown path the not-found problem', async () => {
    await appThrowing(new Error('secret internals'));
    const failed = await app.inject('/fail');
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual(problemFor('internal', 'The request could not be completed.'));
    expect(failed.body).not.toContain('secret internals');
    const missing = await app.inject('/nowhere');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(problemFor('notFound', 'No such thing.'));
  });
});

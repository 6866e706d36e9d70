import type { FastifyInstance } from 'fastify';
import { ProblemError } from '@directory/http-server';
import { PROBLEM_PAGES, negotiatePageFormat, problemPageHtml } from './problem-pages.js';

// The pages do not change within a release: a day in any cache, and they differ by Accept.
const PAGE_CACHE_CONTROL = 'public, max-age=86400';

/**
 * `GET /problems/{name}`: the page each problem body's `type` points at (resolved against the API's
 * origin), for people (HTML) and programs (JSON: the type, its title, status and what to do). No key.
 */
export function problemRoutes(app: FastifyInstance, _options: unknown, done: (error?: Error) => void): void {
  app.get<{ Params: { name: string } }>('/problems/:name', { schema: { hide: true } }, (request, reply) => {
    const page = Object.hasOwn(PROBLEM_PAGES, request.params.name)
      ? PROBLEM_PAGES[request.params.name]
      : undefined;
    if (page === undefined) {
      throw new ProblemError(
        'notFound',
        'There is no such problem type; the types are listed in the API documentation (/docs).',
      );
    }
    reply.header('cache-control', PAGE_CACHE_CONTROL).header('vary', 'Accept');
    if (negotiatePageFormat(request.headers.accept) === 'html') {
      return reply.type('text/html; charset=utf-8').send(problemPageHtml(page));
    }
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(page));
  });
  done();
}

import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { datasetOf, type Datasets, type Directory } from '@directory/search';
import type { ParameterError, Result } from '@directory/domain';
import { documentOnly, parsedQuery } from './query.js';
import { API_KEY_SECURITY, errorResponses, routeTags, type ApiTag, type ErrorStatus } from './route-docs.js';

/** What the OpenAPI document shows for a GET operation behind an API key. */
export type KeyedGetDocs = {
  tag: ApiTag;
  operationId: string;
  summary: string;
  description: string;
  params?: unknown;
  querystring: unknown;
  /** The 200 schema: the serializer writes the answer with it too. */
  ok: unknown;
  /** The problem statuses the operation answers; by default those of a route without a path parameter. */
  errors?: ErrorStatus[];
};

const LIST_ERRORS: ErrorStatus[] = [400, 401, 429, 503];

/**
 * Route options of a GET operation behind an API key: its documented schemas, with the input left to the
 * handler's domain parser (`documentOnly`).
 */
export function keyedGetOptions(docs: KeyedGetDocs): RouteShorthandOptions {
  return {
    validatorCompiler: documentOnly,
    schema: {
      tags: routeTags(docs.tag),
      operationId: docs.operationId,
      summary: docs.summary,
      description: docs.description,
      security: API_KEY_SECURITY,
      ...(docs.params === undefined ? {} : { params: docs.params }),
      querystring: docs.querystring,
      response: { 200: docs.ok, ...errorResponses(docs.errors ?? LIST_ERRORS) },
    },
  };
}

/** A GET operation answered by one call of the key's directory (its mode's dataset) on its parsed query string. */
export type DirectoryListRoute<T> = KeyedGetDocs & {
  path: string;
  /** The domain's parameter parser: a failure answers 400 naming every bad parameter. */
  parse: (raw: Record<string, unknown>) => Result<T, ParameterError[]>;
  answer: (directory: Directory, params: T) => Promise<unknown>;
};

/** The plugin registering a `DirectoryListRoute`. */
export function directoryListRoute<T>(route: DirectoryListRoute<T>) {
  return (app: FastifyInstance, options: { datasets: Datasets }, done: (error?: Error) => void): void => {
    app.get(route.path, keyedGetOptions(route), async (request) =>
      route.answer(datasetOf(options.datasets, request).directory, parsedQuery(request, route.parse)),
    );
    done();
  };
}

import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tracingIsOn } from '@directory/observability';

/**
 * One SERVER span per request while tracing is on (docs/operations.md, "Traces"), named
 * `METHOD <route template>`, continuing the caller's trace when it sends a W3C `traceparent`. The
 * request's queries and searches are its children: the span's context is entered for the hooks and for
 * the handler. Recorded: the method, the route template, the path WITHOUT its query string, the scheme
 * and the status code. Never recorded: query strings and headers (either may carry an API key), cookies,
 * the client's address. While tracing is off no hook is added.
 */
export function installRequestTracing(app: FastifyInstance): void {
  if (!tracingIsOn()) return;
  const tracer = trace.getTracer('@directory/http-server');
  const inFlight = new WeakMap<FastifyRequest, { span: Span; context: Context }>();

  app.addHook('onRequest', (request, _reply, done) => {
    // Fastify has routed the request by now; no route matched (a 404) leaves the template undefined.
    const route = request.routeOptions.url;
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(
      route === undefined ? request.method : `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': pathWithoutQuery(request.url),
          'url.scheme': request.protocol,
          ...(route === undefined ? {} : { 'http.route': route }),
        },
      },
      parent,
    );
    const spanContext = trace.setSpan(parent, span);
    inFlight.set(request, { span, context: spanContext });
    context.with(spanContext, done);
  });
  // Entered again for the handler: a request body is read in the socket's own async context, not ours.
  app.addHook('preHandler', (request, _reply, done) => {
    const traced = inFlight.get(request);
    if (traced === undefined) done();
    else context.with(traced.context, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    endRequestSpan(request, reply);
    done();
  });
  // The client went away before the answer: the response never finishes, so onResponse never runs.
  app.addHook('onRequestAbort', (request, done) => {
    endRequestSpan(request);
    done();
  });

  function endRequestSpan(request: FastifyRequest, reply?: FastifyReply): void {
    const traced = inFlight.get(request);
    if (traced === undefined) return;
    inFlight.delete(request);
    const { span } = traced;
    if (reply === undefined) {
      span.setAttribute('error.type', 'aborted');
      span.setStatus({ code: SpanStatusCode.ERROR });
    } else {
      span.setAttribute('http.response.status_code', reply.statusCode);
      // A server span is an error for 5xx only: a 4xx is the client's mistake, answered as designed.
      if (reply.statusCode >= 500) {
        span.setAttribute('error.type', String(reply.statusCode));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    }
    span.end();
  }
}

function pathWithoutQuery(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

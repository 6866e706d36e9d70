import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, stopTracing } from '@directory/observability';
import { placeState } from '@directory/testing';
import { createKeyedApi, type KeyedApi } from './support/api-harness.js';

// A caller's trace context (W3C traceparent): the request's span must continue it.
const CALLER_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';

describe('traces of API requests (docs/operations.md, "Traces")', () => {
  const exporter = new InMemorySpanExporter();
  let api: KeyedApi;
  let secret: string;

  beforeAll(async () => {
    // Before anything is built, as a process does: the database and the app are instrumented as they are made.
    await startTracing('api', { spanProcessor: new SimpleSpanProcessor(exporter) });
    api = await createKeyedApi('api-tracing', [placeState({ id: 't1', name: 'Praxis Tracing' })]);
    ({ secret } = await api.harness.createKey('tracing@example.com'));
  });
  afterAll(async () => {
    await api?.close();
    await stopTracing();
  });

  async function traceOf(
    url: string,
    headers: Record<string, string> = {},
    status = 200,
  ): Promise<ReadableSpan[]> {
    exporter.reset();
    const response = await api.call({ url, headers: { 'x-api-key': secret, ...headers } });
    expect(response.statusCode, response.body).toBe(status);
    return exporter.getFinishedSpans();
  }

  const serverSpanOf = (spans: ReadableSpan[]): ReadableSpan => {
    const servers = spans.filter((span) => span.kind === SpanKind.SERVER);
    expect(servers).toHaveLength(1);
    return servers[0]!;
  };
  const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan) =>
    spans.filter(
      (span) =>
        span.spanContext().traceId === parent.spanContext().traceId &&
        span.parentSpanContext?.spanId === parent.spanContext().spanId,
    );

  it('a search is a SERVER span named by its route, with the Elasticsearch search as its child', async () => {
    const spans = await traceOf('/api/v1/doctors?country=de&limit=2');
    const server = serverSpanOf(spans);
    expect(server.name).toBe('GET /api/v1/doctors');
    expect(server.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/api/v1/doctors',
      'url.path': '/api/v1/doctors',
      'url.scheme': 'http',
      'http.response.status_code': 200,
    });
    const searches = childrenOf(spans, server).filter(
      (span) => span.attributes['db.system'] === 'elasticsearch',
    );
    expect(searches.map((span) => [span.name, span.kind])).toEqual([['search', SpanKind.CLIENT]]);
  });

  it('a changes page has the PostgreSQL queries as CLIENT children, without statements or values', async () => {
    const spans = await traceOf('/api/v1/changes?country=de&limit=1');
    const server = serverSpanOf(spans);
    expect(server.name).toBe('GET /api/v1/changes');
    const queries = childrenOf(spans, server).filter((span) => span.attributes['db.system'] === 'postgresql');
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query.kind).toBe(SpanKind.CLIENT);
      expect(query.attributes['db.operation.name']).toMatch(/^[A-Z]+$/);
      expect(Object.keys(query.attributes).sort()).toEqual(
        expect.arrayContaining(['db.namespace', 'db.operation.name', 'db.system']),
      );
      expect(query.attributes).not.toHaveProperty('db.query.text');
      // Started before it ended, within the request.
      expect(query.startTime[0] * 1e9 + query.startTime[1]).toBeGreaterThanOrEqual(
        server.startTime[0] * 1e9 + server.startTime[1] - 1e6,
      );
    }
  });

  it("continues the caller's trace from its traceparent header", async () => {
    const spans = await traceOf('/api/v1/doctors?country=de', {
      traceparent: `00-${CALLER_TRACE_ID}-${CALLER_SPAN_ID}-01`,
    });
    const server = serverSpanOf(spans);
    expect(server.spanContext().traceId).toBe(CALLER_TRACE_ID);
    expect(server.parentSpanContext?.spanId).toBe(CALLER_SPAN_ID);
    expect(spans.every((span) => span.spanContext().traceId === CALLER_TRACE_ID)).toBe(true);
  });

  it('records no query string, key or header in any span', async () => {
    const spans = [
      // Refused (a key in the URL is a 400), and its span still records only the path.
      ...(await traceOf(`/api/v1/doctors?country=de&q=praxis&api_key=${secret}`, {}, 400)),
      ...(await traceOf('/api/v1/changes?country=de&limit=1', { cookie: 'session=secret-cookie' })),
    ];
    const recorded = JSON.stringify(
      spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events })),
    );
    for (const forbidden of [secret, 'country=', 'praxis', 'api_key', 'x-api-key', 'secret-cookie', '?'])
      expect(recorded).not.toContain(forbidden);
  });
});

import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@directory/config';
import { createSearchClient } from '@directory/search-index';
import { startTracing, stopTracing } from '../src/tracing.js';

describe('what tracing exports', () => {
  const exporter = new InMemorySpanExporter();

  beforeAll(async () => {
    await startTracing('api', { spanProcessor: new SimpleSpanProcessor(exporter) });
  });
  afterAll(() => stopTracing());

  it("drops the user name and password from the client's url.full", async () => {
    const node = new URL(loadConfig().ELASTICSEARCH_URL[0] ?? '');
    node.username = 'directory';
    node.password = 'secret-password';
    const client = createSearchClient(node.toString(), { timeoutMs: 5_000 });
    // Inside a request's span, as the API's searches are (a CLIENT span without a parent is not exported).
    await trace.getTracer('test').startActiveSpan('GET /test', async (request) => {
      try {
        await client.cluster.health();
      } finally {
        request.end();
        await client.close();
      }
    });
    const span = exporter.getFinishedSpans().find((finished) => finished.kind === SpanKind.CLIENT);
    expect(span?.attributes['db.system']).toBe('elasticsearch');
    expect(span?.attributes['url.full']).toBe(`${node.protocol}//${node.host}/`);
    expect(JSON.stringify(exporter.getFinishedSpans().map((finished) => finished.attributes))).not.toMatch(
      /secret-password|directory@/,
    );
  });

  it('drops a CLIENT span that no request or job caused (a probe)', async () => {
    exporter.reset();
    const client = createSearchClient(loadConfig().ELASTICSEARCH_URL, { timeoutMs: 5_000 });
    try {
      await client.cluster.health();
    } finally {
      await client.close();
    }
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

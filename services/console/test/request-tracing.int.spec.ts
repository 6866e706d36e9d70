import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, stopTracing } from '@directory/observability';
import {
  PASSWORD,
  TestBrowser,
  signUp,
  startConsole,
  type ConsoleHarness,
} from './support/console-harness.js';

// The console is traced like the API (docs/operations.md, "Traces"): a SERVER span per page or form,
// its PostgreSQL queries below it, and no form field (a password) in any attribute.
describe('traces of console requests', () => {
  const exporter = new InMemorySpanExporter();
  let harness: ConsoleHarness;

  beforeAll(async () => {
    await startTracing('console', { spanProcessor: new SimpleSpanProcessor(exporter) });
    harness = await startConsole('console-tracing');
  });
  afterAll(async () => {
    await harness?.close();
    await stopTracing();
  });

  it('a sign-up is a SERVER span named by its route, with its queries as children and no form value', async () => {
    const browser = new TestBrowser(harness.app);
    exporter.reset();
    await signUp(browser, 'tracing@example.com');
    const spans = exporter.getFinishedSpans();
    const signUpSpan = spans.find((span) => span.kind === SpanKind.SERVER && span.name === 'POST /sign-up');
    expect(signUpSpan, spans.map((span) => span.name).join(', ')).toBeDefined();
    const queries = spans.filter(
      (span) =>
        span.attributes['db.system'] === 'postgresql' &&
        span.parentSpanContext?.spanId === signUpSpan?.spanContext().spanId,
    );
    expect(queries.length).toBeGreaterThan(0);
    const recorded = JSON.stringify(spans.map((span) => span.attributes));
    expect(recorded).not.toContain('tracing@example.com');
    expect(recorded).not.toContain(PASSWORD);
  });
});

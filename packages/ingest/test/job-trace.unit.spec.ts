import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it, vi } from 'vitest';

describe('ingest spans', () => {
  it('go to the provider registered now, not to the one registered when the module was loaded', async () => {
    // One module graph of its own, so that the ingest module is loaded while tracing is on.
    vi.resetModules();
    const { startTracing, stopTracing } = await import('@directory/observability');
    await startTracing('worker', { spanProcessor: new SimpleSpanProcessor(new InMemorySpanExporter()) });
    const { traceIngestRun } = await import('../src/job-trace.js');
    await stopTracing();

    const second = new InMemorySpanExporter();
    await startTracing('worker', { spanProcessor: new SimpleSpanProcessor(second) });
    try {
      await traceIngestRun('input.ndjson', () => Promise.resolve());
      // Read before the stop: an in-memory exporter forgets its spans when shut down.
      expect(second.getFinishedSpans().map((span) => span.name)).toEqual(['ingest input.ndjson']);
    } finally {
      await stopTracing();
    }
  });
});

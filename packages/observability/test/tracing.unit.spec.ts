import { trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { searchOptions } from '@directory/search-index';
import { startTracing, stopTracing, tracingConfigured, tracingIsOn } from '../src/tracing.js';

describe('tracing is off unless configured (docs/operations.md, "Traces")', () => {
  afterEach(() => stopTracing());

  it('is configured by an OTLP endpoint for traces, unless the SDK is disabled', () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBe(false);
    expect(tracingConfigured({ OTEL_SERVICE_NAME: 'directory-api' })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(
      true,
    );
    expect(
      tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBe(false);
    expect(
      tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'false' }),
    ).toBe(true);
  });

  it('starts nothing by default: no provider registered, spans are no-ops, searches skip the client span', async () => {
    expect(await startTracing('api', { environment: {} })).toBe(false);
    expect(tracingIsOn()).toBe(false);
    const span = trace.getTracer('check').startSpan('check');
    expect(span.isRecording()).toBe(false);
    span.end();
    expect(searchOptions()).toEqual({ openTelemetry: { enabled: false } });
  });

  it('with an endpoint, registers a provider and lets the search client make its spans; stops cleanly', async () => {
    // Nothing listens there: spans are batched and never sent before stopTracing drops them.
    expect(
      await startTracing('api', { environment: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' } }),
    ).toBe(true);
    expect(tracingIsOn()).toBe(true);
    expect(trace.getTracer('check').startSpan('check').isRecording()).toBe(true);
    expect(searchOptions()).toEqual({ openTelemetry: { enabled: true } });
    await stopTracing();
    expect(tracingIsOn()).toBe(false);
    expect(searchOptions()).toEqual({ openTelemetry: { enabled: false } });
    expect(trace.getTracer('check').startSpan('check').isRecording()).toBe(false);
  });
});

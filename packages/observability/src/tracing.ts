import { SpanKind, context, propagation, trace } from '@opentelemetry/api';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { traceDatabaseQueries } from '@directory/database';

/**
 * Distributed traces (docs/operations.md, "Traces"), off unless an OTLP endpoint is configured. Only
 * whether it is on is read here; the SDK reads the rest of the standard OTEL_* variables itself
 * (endpoint, headers, sampler, batch sizes, resource attributes), which is why they are not in the
 * project's configuration. Everything the project instruments asks `tracingIsOn()` once, when it is
 * built, and adds nothing at all while it is off.
 */

export type TracingOptions = {
  /** Where the on/off decision is read (the process's environment by default). */
  environment?: Record<string, string | undefined>;
  /** Where finished spans go instead of the OTLP exporter (tests: an in-memory exporter); turns tracing on. */
  spanProcessor?: SpanProcessor;
};

let provider: NodeTracerProvider | undefined;

/** On when an OTLP endpoint is set for traces, unless the SDK is disabled (OTEL_SDK_DISABLED=true). */
export function tracingConfigured(environment: Record<string, string | undefined>): boolean {
  const endpoint =
    environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || environment.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const disabled = environment.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
  return Boolean(endpoint) && !disabled;
}

/**
 * Starts the tracing SDK when configured (a process calls it first, before it opens its databases and
 * builds its app): a NodeTracerProvider with the AsyncLocalStorage context manager and the W3C trace
 * context propagator, spans batched to the OTLP/HTTP (protobuf) exporter. The process is the service
 * `directory-<kind>` (`api`, `mcp`, `console`, `worker`, `ingest`) unless OTEL_SERVICE_NAME names it.
 * Returns whether tracing is on.
 */
export async function startTracing(kind: string, options: TracingOptions = {}): Promise<boolean> {
  if (provider !== undefined) return true;
  if (options.spanProcessor === undefined && !tracingConfigured(options.environment ?? process.env))
    return false;
  // Loaded only when on: the SDK and the exporter take about a third of a second and several MB to load.
  const [{ OTLPTraceExporter }, resources, { BatchSpanProcessor }, sdkTraceNode] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-trace-node'),
  ]);
  if (provider !== undefined) return true;
  provider = new sdkTraceNode.NodeTracerProvider({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (read by the env detector) win over the default name.
    resource: resources
      .defaultResource()
      .merge(resources.resourceFromAttributes({ 'service.name': `directory-${kind}` }))
      .merge(resources.detectResources({ detectors: [resources.envDetector] })),
    spanProcessors: [
      new ExportPolicy(options.spanProcessor ?? new BatchSpanProcessor(new OTLPTraceExporter())),
    ],
  });
  provider.register();
  traceDatabaseQueries(true);
  return true;
}

/** True once `startTracing` turned tracing on (and until `stopTracing`). */
export function tracingIsOn(): boolean {
  return provider !== undefined;
}

/**
 * Exports the spans still buffered and unregisters the SDK: at the end of a process's shutdown (so the
 * last spans are not lost), and between tests. Nothing to do while tracing is off.
 */
export async function stopTracing(): Promise<void> {
  if (provider === undefined) return;
  const stopping = provider;
  provider = undefined;
  traceDatabaseQueries(false);
  try {
    await stopping.shutdown();
  } finally {
    trace.disable();
    context.disable();
    propagation.disable();
  }
}

// The semantic-conventions attribute the Elasticsearch client records the node's URL in.
const URL_FULL = 'url.full';

/**
 * What leaves the process, between the SDK and the exporter:
 * - a CLIENT span with no parent is dropped: a query or search no request or job caused (readiness
 *   probes, samplers, the store-position watch) would be a one-span trace every second or so;
 * - a user name and password are removed from `url.full`: the Elasticsearch client records the node's
 *   URL as configured, and ELASTICSEARCH_URL may carry credentials (`https://user:password@host:9200`).
 */
class ExportPolicy implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Parameters<SpanProcessor['onStart']>[1]): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if (span.kind === SpanKind.CLIENT && span.parentSpanContext === undefined) return;
    const url = span.attributes[URL_FULL];
    if (typeof url === 'string' && URL.canParse(url)) {
      const parsed = new URL(url);
      if (parsed.username !== '' || parsed.password !== '') {
        parsed.username = '';
        parsed.password = '';
        span.attributes[URL_FULL] = parsed.toString();
      }
    }
    this.next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

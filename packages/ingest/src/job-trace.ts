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
import { tracingIsOn } from '@directory/observability';
import { INGEST_QUEUE_NAME, batchItemCount, type IngestJobData } from './queue.js';

/**
 * An ingest as one trace (docs/operations.md, "Traces"): the producer's run span, a PRODUCER span per
 * group of jobs it adds, whose W3C `traceparent` travels in each job's data, and the worker's CONSUMER
 * span per job, the child of that PRODUCER span, around the fold and the index writes. A job without a
 * `traceparent` (enqueued with tracing off, or before this field existed) starts a trace of its own.
 * While tracing is off nothing here creates a span or touches a job's data.
 */

// Asked for at each span, not once at load: a tracer taken while one provider is registered stays bound
// to it after tracing is stopped and started again in the same process.
const tracer = () => trace.getTracer('@directory/ingest');

const QUEUE_ATTRIBUTES = {
  'messaging.system': 'bullmq',
  'messaging.destination.name': INGEST_QUEUE_NAME,
};

/** Runs `work` with `span` active under `parent`; marks the span failed if `work` throws, ends it either way. */
async function runInSpan<T>(span: Span, parent: Context, work: () => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    span.setAttribute('error.type', error instanceof Error ? error.name : 'error');
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

/** The producer's run over one input, as the root of its trace. */
export function traceIngestRun<T>(sourceName: string, work: () => Promise<T>): Promise<T> {
  if (!tracingIsOn()) return work();
  return runInSpan(
    tracer().startSpan(`ingest ${sourceName}`, { kind: SpanKind.INTERNAL }),
    context.active(),
    work,
  );
}

/**
 * Adding `jobCount` jobs, as a PRODUCER span: `send` gets a function that stamps a job's data with the
 * span's trace context (returning the data unchanged while tracing is off).
 */
export function traceEnqueue<T>(
  jobCount: number,
  send: (withTraceContext: (data: IngestJobData) => IngestJobData) => Promise<T>,
): Promise<T> {
  if (!tracingIsOn()) return send((data) => data);
  const span = tracer().startSpan(`send ${INGEST_QUEUE_NAME}`, {
    kind: SpanKind.PRODUCER,
    attributes: {
      ...QUEUE_ATTRIBUTES,
      'messaging.operation.type': 'send',
      'messaging.batch.message_count': jobCount,
    },
  });
  return runInSpan(span, context.active(), () => {
    const carrier: { traceparent?: string } = {};
    propagation.inject(context.active(), carrier);
    const { traceparent } = carrier;
    return send((data) => (traceparent === undefined ? data : { ...data, traceparent }));
  });
}

/** Processing one job, as a CONSUMER span continuing the trace its producer started. */
export function traceJob<T>(
  job: { id?: string; data: IngestJobData; attemptsMade: number },
  work: () => Promise<T>,
): Promise<T> {
  if (!tracingIsOn()) return work();
  const { traceparent } = job.data;
  const parent =
    typeof traceparent === 'string' ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
  const span = tracer().startSpan(
    `process ${INGEST_QUEUE_NAME}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        ...QUEUE_ATTRIBUTES,
        'messaging.operation.type': 'process',
        ...(job.id === undefined ? {} : { 'messaging.message.id': job.id }),
        // BullMQ counts attempts made before this one.
        'directory.ingest.attempt': job.attemptsMade + 1,
        'directory.ingest.events': batchItemCount(job.data),
      },
    },
    parent,
  );
  return runInSpan(span, parent, work);
}

/**
 * The index write of a fold, as a span of its own: the projection's bulk request is sent as a prepared
 * body, for which the Elasticsearch client makes no span.
 */
export function traceIndexWrite<T>(alias: string, documents: number, work: () => Promise<T>): Promise<T> {
  if (!tracingIsOn()) return work();
  const span = tracer().startSpan('index write', {
    kind: SpanKind.CLIENT,
    attributes: {
      'db.system': 'elasticsearch',
      'db.operation.name': 'bulk',
      'db.collection.name': alias,
      'directory.ingest.documents': documents,
    },
  });
  return runInSpan(span, context.active(), work);
}

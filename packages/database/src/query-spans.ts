import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import {
  AliasNode,
  DeleteQueryNode,
  InsertQueryNode,
  SelectQueryNode,
  TableNode,
  UpdateQueryNode,
  type LogEvent,
  type OperationNode,
} from 'kysely';

/**
 * One CLIENT span per PostgreSQL query of a traced request or job (docs/operations.md, "Traces"), from
 * Kysely's log hook: it runs
 * in the query's own async context once the query has answered, so the span's parent is whatever span
 * was active when the query was sent, and its start is the end minus the duration Kysely measured.
 * Statement text and parameter values are never recorded (a value may be personal data or a key hash);
 * a failed query records its SQLSTATE (or error name), not its message, which can quote a value.
 */

let tracingQueries = false;

/**
 * Turned on by the tracing set-up (`startTracing` in @directory/observability) before a process opens
 * its databases: only databases created afterwards report queries, and while it is off Kysely is given
 * no log hook at all (no cost per query).
 */
export function traceDatabaseQueries(on: boolean): void {
  tracingQueries = on;
}

/** The Kysely `log` option for a database: a span per query while tracing is on, nothing otherwise. */
export function queryTracingLog(connectionString: string): ((event: LogEvent) => void) | undefined {
  if (!tracingQueries) return undefined;
  const databaseName = decodeURIComponent(new URL(connectionString).pathname.slice(1));
  const tracer = trace.getTracer('@directory/database');
  return (event) => {
    // Only inside a request or a job: the processes' own probes, samplers and sweeps are not traced.
    const parent = context.active();
    if (trace.getSpan(parent) === undefined) return;
    const endTime = performance.now();
    const operation = operationName(event.query.query, event.query.sql);
    const table = tableName(event.query.query);
    const span = tracer.startSpan(
      table === undefined ? operation : `${operation} ${table}`,
      {
        kind: SpanKind.CLIENT,
        startTime: endTime - event.queryDurationMillis,
        attributes: {
          // As the Elasticsearch client names its spans' attributes, so both stores read alike.
          'db.system': 'postgresql',
          'db.namespace': databaseName,
          'db.operation.name': operation,
          ...(table === undefined ? {} : { 'db.collection.name': table }),
        },
      },
      parent,
    );
    if (event.level === 'error') {
      const code = (event.error as { code?: unknown } | undefined)?.code;
      span.setAttribute(
        'error.type',
        typeof code === 'string' ? code : event.error instanceof Error ? event.error.name : 'error',
      );
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(endTime);
  };
}

/** SELECT, INSERT, UPDATE, DELETE from the query builder's tree; a raw statement's first keyword otherwise. */
function operationName(node: OperationNode, sql: string): string {
  if (SelectQueryNode.is(node)) return 'SELECT';
  if (InsertQueryNode.is(node)) return 'INSERT';
  if (UpdateQueryNode.is(node)) return 'UPDATE';
  if (DeleteQueryNode.is(node)) return 'DELETE';
  return /^\s*([a-z]+)/i.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
}

/** The table a built query reads or writes first (undefined for raw statements and subqueries). */
function tableName(node: OperationNode): string | undefined {
  const target = SelectQueryNode.is(node)
    ? node.from?.froms[0]
    : InsertQueryNode.is(node)
      ? node.into
      : UpdateQueryNode.is(node)
        ? node.table
        : DeleteQueryNode.is(node)
          ? node.from.froms[0]
          : undefined;
  const table = target !== undefined && AliasNode.is(target) ? target.node : target;
  return table !== undefined && TableNode.is(table) ? table.table.identifier.name : undefined;
}

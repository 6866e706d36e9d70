import type { FastifyInstance } from 'fastify';

export type ServeOptions = {
  host: string;
  port: number;
  /** Closes what the app uses (database, Redis, search), once the app has stopped taking requests. */
  onClose: () => Promise<unknown>;
  /** Writes out buffered log lines before the process exits (an asynchronous pino destination). */
  flushLogs?: () => void;
  /** The whole close may take this long (SHUTDOWN_TIMEOUT_MS); past it the process exits anyway. */
  shutdownTimeoutMs?: number;
};

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 8_000;

/**
 * Listens, and on the first SIGTERM or SIGINT closes gracefully: logs "closing", closes the app (stops
 * accepting, lets in-flight requests finish), then its resources, flushes logs and exits 0. The close is
 * bounded: a request or a connection stuck on a dependency that does not answer cannot hold the process,
 * which exits 1 with "shutdown deadline passed" once `shutdownTimeoutMs` is spent. Resolves once
 * listening, so the caller can log where it serves.
 */
export async function serveUntilSignal(app: FastifyInstance, options: ServeOptions): Promise<void> {
  let closing = false;
  async function shutdown(signal: string): Promise<void> {
    if (closing) return;
    closing = true;
    const timeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    app.log.info({ signal, timeoutMs }, 'closing');
    setTimeout(() => {
      app.log.error({ timeoutMs }, 'shutdown deadline passed; exiting without waiting further');
      options.flushLogs?.();
      process.exit(1);
    }, timeoutMs).unref();
    try {
      // Node closes only the keep-alive connections idle when closing begins; one whose request was still
      // in flight becomes idle later and would hold close() until its keep-alive timeout: close those too.
      const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await app.close();
      } finally {
        clearInterval(closeIdle);
      }
      await options.onClose();
    } finally {
      options.flushLogs?.();
      process.exit(0);
    }
  }
  // Installed before listening: a signal during startup still closes cleanly.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => void shutdown(signal));
  }

  await app.listen({ host: options.host, port: options.port });
}

// A connection to a server that does not answer (paused, partitioned) cannot be closed politely: closing
// waits for its goodbye at most this long, then the process exits without it.
const CLOSE_TIMEOUT_MS = 2_000;

/**
 * Waits for connections to close (`db.destroy()`, `redis.quit()`…), at most two seconds; failures are
 * ignored (the process is exiting anyway).
 */
export async function closeConnections(closing: ReadonlyArray<Promise<unknown>>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)));
  await Promise.race([Promise.allSettled(closing), expired]);
  clearTimeout(timer);
}

import type { FastifyInstance } from 'fastify';
import { markStopping, stopTracing } from '@directory/observability';

export type ServeOptions = {
  host: string;
  port: number;
  /** Closes what the app uses (database, Redis, search), once the app has stopped taking requests. */
  onClose: () => Promise<unknown>;
  /** Writes out buffered log lines before the process exits (an asynchronous pino destination). */
  flushLogs?: () => void;
  /**
   * How long the app keeps answering after the stop signal while /readyz already fails
   * (SHUTDOWN_DRAIN_MS), so a load balancer takes it out of rotation first; 0: close at once.
   */
  drainMs: number;
  /**
   * The close may take this long (SHUTDOWN_TIMEOUT_MS), counted from the end of the drain; past it the
   * process exits anyway.
   */
  shutdownTimeoutMs?: number;
};

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 8_000;
const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Listens, and on the first SIGTERM or SIGINT stops gracefully (docs/operations.md, "Shutdown and
 * draining"): fails /readyz at once and logs "draining", keeps answering for `drainMs` (a second signal
 * ends the drain early), then logs "closing", closes the app (stops accepting, lets in-flight requests
 * finish), then its resources, flushes logs and exits 0. The close is bounded: a request or a connection
 * stuck on a dependency that does not answer cannot hold the process, which exits 1 with "shutdown
 * deadline passed" once `shutdownTimeoutMs` is spent. Resolves once listening, so the caller can log
 * where it serves.
 */
export async function serveUntilSignal(app: FastifyInstance, options: ServeOptions): Promise<void> {
  let stopping = false;
  let endDrainEarly: (() => void) | undefined;
  function onStopSignal(signal: NodeJS.Signals): void {
    if (!stopping) {
      stopping = true;
      void stop(signal);
    } else if (endDrainEarly) {
      app.log.info({ signal }, 'second stop signal; ending the drain early');
      endDrainEarly();
    }
  }

  async function stop(signal: NodeJS.Signals): Promise<void> {
    // Out of the balancer's rotation first; requests keep being answered while it notices.
    markStopping();
    if (options.drainMs > 0) {
      app.log.info({ signal, drainMs: options.drainMs }, 'draining');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.drainMs);
        endDrainEarly = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      endDrainEarly = undefined;
    }
    // While closing, a further signal ends the process at once (Node's default for a signal nobody handles).
    for (const stopSignal of STOP_SIGNALS) process.off(stopSignal, onStopSignal);
    await close(signal);
  }

  async function close(signal: NodeJS.Signals): Promise<void> {
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
      // The spans of the last requests are still buffered: export them, as long as a connection's goodbye.
      await closeConnections([stopTracing()]);
    } finally {
      options.flushLogs?.();
      process.exit(0);
    }
  }
  // Installed before listening: a signal during startup still closes cleanly.
  for (const signal of STOP_SIGNALS) process.on(signal, onStopSignal);

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

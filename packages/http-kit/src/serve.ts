import type { FastifyInstance } from 'fastify';

export type ServeOptions = {
  host: string;
  port: number;
  /** Closes what the app uses (database, Redis, search), once the app has stopped taking requests. */
  onClose: () => Promise<unknown>;
  /** Writes out buffered log lines before the process exits (an asynchronous pino destination). */
  flushLogs?: () => void;
};

/**
 * Listens, and on the first SIGTERM or SIGINT closes gracefully: logs "closing", closes the app (stops
 * accepting, lets in-flight requests finish), then its resources, flushes logs and exits 0. Resolves once
 * listening, so the caller can log where it serves.
 */
export async function serveUntilSignal(app: FastifyInstance, options: ServeOptions): Promise<void> {
  let closing = false;
  async function shutdown(signal: string): Promise<void> {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'closing');
    try {
      await app.close();
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

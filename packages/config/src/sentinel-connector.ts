import { Redis, SentinelConnector, type SentinelConnectionOptions } from 'ioredis';

type ErrorEmitter = Parameters<SentinelConnector['connect']>[0];
type ConnectionStream = Awaited<ReturnType<SentinelConnector['connect']>>;

/** How soon a watcher tries a sentinel again after losing it: quickly, then every second. */
const WATCHER_RETRY_MS = (attempt: number) => Math.min(attempt * 100, 1_000);

/**
 * ioredis's Sentinel connector, following failovers without ever ending the client.
 *
 * A client must leave its primary as soon as a sentinel announces a new one (`+switch-master`): a
 * primary that is paused or cut off keeps its connections open and never answers. ioredis's own
 * detector (`failoverDetector: true`) does that by disconnecting the connector, and when the
 * announcement lands while the client is reconnecting (asking the sentinels for the primary after
 * losing its server, as after a primary is killed), that aborts the connect in progress: ioredis then
 * puts the client in its terminal "end" state, and every later command of the process fails.
 *
 * Here each connection is watched by subscribers of its own, and an announcement destroys only that
 * connection if it is still open: ioredis sees it close and reconnects through the sentinels, as for
 * any lost connection. A reconnect in progress is left alone; it asks the sentinels anyway. The
 * watchers close with their connection. Clients duplicated from this one (BullMQ's blocking reads) get
 * the same connector through their options.
 */
export class FailoverFollowingSentinelConnector extends SentinelConnector {
  // ioredis constructs a `Connector` option with the client's options, typed unknown there.
  constructor(options: unknown) {
    super(options as SentinelConnectionOptions);
  }

  override async connect(emitError: ErrorEmitter): Promise<ConnectionStream> {
    const stream = await super.connect(emitError);
    this.watchForFailovers(stream);
    return stream;
  }

  private watchForFailovers(stream: ConnectionStream): void {
    const { sentinels = [], sentinelUsername, sentinelPassword } = this.options;
    const watchers = sentinels.map(
      (sentinel) =>
        new Redis({
          host: sentinel.host ?? '127.0.0.1',
          port: sentinel.port ?? 26379,
          ...(sentinelUsername === undefined ? {} : { username: sentinelUsername }),
          ...(sentinelPassword === undefined ? {} : { password: sentinelPassword }),
          retryStrategy: WATCHER_RETRY_MS,
          maxRetriesPerRequest: null,
        }),
    );
    const stopWatching = () => {
      for (const watcher of watchers) watcher.disconnect();
    };
    stream.once('close', stopWatching);
    for (const watcher of watchers) {
      // A sentinel that is down is one watcher fewer until it is back; the others still tell.
      watcher.on('error', () => undefined);
      watcher.on('message', () => {
        if (!stream.destroyed) stream.destroy();
      });
      watcher.subscribe('+switch-master').catch(() => undefined);
    }
  }
}

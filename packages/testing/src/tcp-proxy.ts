import { createServer, connect, type Socket } from 'node:net';

export type TcpProxy = {
  port: number;
  /** Drops every open connection and refuses new ones until `unblock`: the target looks down. */
  block: () => void;
  unblock: () => void;
  close: () => Promise<void>;
};

/**
 * A loopback TCP proxy in front of a shared server, so a test can make that server unreachable for the
 * process under test (and bring it back) without ever touching the server itself. With `delayMs`, every
 * chunk is passed on that much later in each direction (in order): a slow link.
 */
export async function startTcpProxy(
  target: { host: string; port: number },
  options: { delayMs?: number } = {},
): Promise<TcpProxy> {
  const delayMs = options.delayMs ?? 0;
  let blocked = false;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    if (blocked) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    if (delayMs === 0) {
      client.pipe(upstream).pipe(client);
      return;
    }
    // Timers of one delay fire in the order they were set, so the chunks keep theirs.
    const forwardLater = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => setTimeout(() => to.destroyed || to.write(chunk), delayMs));
    forwardLater(client, upstream);
    forwardLater(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    block: () => {
      blocked = true;
      for (const socket of open) socket.destroy();
    },
    unblock: () => {
      blocked = false;
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

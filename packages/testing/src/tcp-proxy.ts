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
 * process under test (and bring it back) without ever touching the server itself.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
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
    client.pipe(upstream).pipe(client);
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

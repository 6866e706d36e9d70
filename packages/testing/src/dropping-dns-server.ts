import { createSocket } from 'node:dgram';

/**
 * A name server that never answers: a UDP socket on loopback that reads every query and drops it, as an
 * attacker's slow authoritative server would. It records the names asked, so a test can tell that the
 * resolver under test really asked it.
 */
export type DroppingDnsServer = {
  /** `127.0.0.1:port`, as WEBHOOK_DNS_SERVERS lists a server. */
  address: string;
  /** The query names received so far, in order (one per query: A and AAAA are two). */
  asked: () => string[];
  close: () => Promise<void>;
};

/** The first question's name of a DNS query (RFC 1035 4.1.2); null when the packet is not one. */
export function queryName(packet: Buffer): string | null {
  const labels: string[] = [];
  let offset = 12; // the header
  while (offset < packet.length) {
    const length = packet[offset] ?? 0;
    if (length === 0) return labels.join('.');
    if (length > 63 || offset + 1 + length > packet.length) return null; // a pointer or a truncated label
    labels.push(packet.toString('latin1', offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  return null;
}

export async function startDroppingDnsServer(): Promise<DroppingDnsServer> {
  const socket = createSocket('udp4');
  const asked: string[] = [];
  socket.on('message', (packet) => asked.push(queryName(packet) ?? '(not a query)'));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    asked: () => [...asked],
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedAddress, EndpointTarget } from './address-policy.js';

/** What the receiver answered (at most this much of its body is read: we only need its status). */
export const RESPONSE_BYTES_READ = 4_096;

export type AttemptResult = {
  /** Null: no HTTP answer (refused before connecting, connection error, timeout). */
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
};

/**
 * A lookup that answers with the address the policy checked, whatever the name: the connection goes
 * to that address, never to a second DNS answer (rebinding). Node asks for one address or, with
 * `all`, a list.
 */
export function pinnedLookup(address: CheckedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all === true) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  }) as LookupFunction;
}

/**
 * POSTs `body` to the endpoint at the checked address: no redirect followed (a 3xx is a failure), no
 * connection pooling, a whole-attempt limit of `timeoutMs`.
 */
export function postSigned(input: {
  target: EndpointTarget;
  address: CheckedAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}): Promise<AttemptResult> {
  const { target, address, body, timeoutMs } = input;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const transport = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ statusCode, error, latencyMs: elapsed() });
    };
    const request = transport.request(
      {
        method: 'POST',
        hostname: target.host,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        headers: {
          ...input.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'doctor-directory-webhooks/1',
        },
        lookup: pinnedLookup(address),
        agent: false,
      },
      (response) => {
        const statusCode = response.statusCode ?? null;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= RESPONSE_BYTES_READ) {
            finish(statusCode, null);
            response.destroy();
          }
        });
        response.on('end', () => finish(statusCode, null));
        response.on('error', () => finish(statusCode, null));
      },
    );
    const timer = setTimeout(() => {
      finish(null, `timed out after ${timeoutMs} ms`);
      request.destroy();
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => finish(null, error.code ?? error.message));
    request.end(body);
  });
}

import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { fail, ok, type Result } from '@directory/domain';
import {
  checkTarget,
  parseEndpointUrl,
  resolutionBudgetMs,
  type AddressPolicy,
  type CheckedAddress,
  type EndpointTarget,
} from './address-policy.js';
import { connectionError, timeoutError } from './attempt-errors.js';

export type AttemptResult = {
  /** Null: no HTTP answer (refused before connecting, connection error, timeout). */
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
};

/**
 * One attempt's clock: WEBHOOK_TIMEOUT_MS covers everything the attempt does, resolving the name
 * included, so a slow name server cannot stretch an attempt past it.
 */
export type AttemptClock = { startedAt: number; timeoutMs: number };

function startAttempt(timeoutMs: number): AttemptClock {
  return { startedAt: performance.now(), timeoutMs };
}

function elapsedMs(clock: AttemptClock): number {
  return performance.now() - clock.startedAt;
}

function remainingMs(clock: AttemptClock): number {
  return Math.max(0, clock.timeoutMs - elapsedMs(clock));
}

/** No connection was made: the URL or its address is refused now (`latencyMs` 0: nothing was sent). */
function refused(reason: string): AttemptResult {
  return { statusCode: null, error: `refused: ${reason}`, latencyMs: 0 };
}

/**
 * The check an attempt makes before connecting: the URL's form and port, then its addresses, DNS
 * getting at most what is left of the attempt. Checked again at every attempt: what the name resolves
 * to now is what matters.
 */
async function checkDeliveryTarget(
  url: string,
  policy: AddressPolicy,
  clock: AttemptClock,
): Promise<Result<{ target: EndpointTarget; address: CheckedAddress }, AttemptResult>> {
  const parsed = parseEndpointUrl(url, policy);
  if (!parsed.ok) return fail(refused(parsed.error));
  const budgetMs = Math.min(resolutionBudgetMs(policy), remainingMs(clock));
  const address = await checkTarget(parsed.value, policy, budgetMs);
  if (!address.ok) return fail(refused(address.error));
  return ok({ target: parsed.value, address: address.value });
}

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
 * connection pooling, within what is left of the attempt's time. The attempt ends on the status line:
 * the receiver's status is all we need, so its body is never read and a body that never ends cannot
 * turn a 2xx into a timeout.
 */
function postSigned(input: {
  target: EndpointTarget;
  address: CheckedAddress;
  headers: Record<string, string>;
  body: string;
  clock: AttemptClock;
}): Promise<AttemptResult> {
  const { target, address, body, clock } = input;
  const transport = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ statusCode, error, latencyMs: Math.round(elapsedMs(clock)) });
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
        finish(response.statusCode ?? null, null);
        // Errors of the connection we are closing are no longer the attempt's.
        response.on('error', () => {});
        request.destroy();
      },
    );
    const timer = setTimeout(() => {
      finish(null, timeoutError(clock.timeoutMs));
      request.destroy();
    }, remainingMs(clock));
    request.on('error', (error) => finish(null, connectionError(error)));
    request.end(body);
  });
}

/**
 * One attempt of a delivery, all of it within `timeoutMs` (WEBHOOK_TIMEOUT_MS): the target checked as
 * it resolves now, then the signed POST to the checked address. `signatureHeaders` runs once the target
 * passed (a refused address is recorded as refused); its error is recorded as the attempt's.
 */
export async function attemptSigned(input: {
  url: string;
  policy: AddressPolicy;
  timeoutMs: number;
  body: string;
  signatureHeaders: () => Result<Record<string, string>>;
}): Promise<AttemptResult> {
  const clock = startAttempt(input.timeoutMs);
  const checked = await checkDeliveryTarget(input.url, input.policy, clock);
  if (!checked.ok) return checked.error;
  const headers = input.signatureHeaders();
  if (!headers.ok) return { statusCode: null, error: headers.error, latencyMs: 0 };
  return postSigned({ ...checked.value, headers: headers.value, body: input.body, clock });
}

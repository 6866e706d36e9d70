import { Resolver } from 'node:dns/promises';

/**
 * How webhook host names are resolved: c-ares (`dns.promises.Resolver`), which runs on the event loop's
 * own sockets. `dns.lookup` would run getaddrinfo on libuv's four-thread pool, where a slow name server
 * holds a thread for as long as it likes and everything else on the pool (scrypt at sign-in, file
 * reads) waits behind it.
 */
export type DnsSettings = {
  /** WEBHOOK_DNS_SERVERS: `address` or `address:port` (`[v6]:port`); empty: the system's (resolv.conf). */
  servers: readonly string[];
  /** WEBHOOK_DNS_TIMEOUT_MS: how long one try waits for an answer. */
  timeoutMs: number;
  /** WEBHOOK_DNS_TRIES: tries per query. */
  tries: number;
};

export const DEFAULT_DNS_SETTINGS: DnsSettings = { servers: [], timeoutMs: 2_000, tries: 2 };

/** A name's addresses, or why there are none (the reason is for the server's log, never the account). */
export type Resolution = { ok: true; addresses: string[] } | { ok: false; reason: string };

/**
 * The longest a resolution may take: each try its timeout. c-ares doubles the timeout at each retry,
 * so its own total would be larger; the budget is enforced here, not left to it.
 */
export function dnsBudgetMs(dns: DnsSettings): number {
  return dns.timeoutMs * dns.tries;
}

// "This name has no record of that type": the other family may still have addresses.
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

function errorCode(reason: unknown): string {
  const code = (reason as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'error';
}

/**
 * The addresses of the A and AAAA answers. Both queries must have completed: an answer that failed
 * otherwise than "no such record" (timeout, SERVFAIL) leaves the set of addresses unknown.
 */
export function addressesFromAnswers(answers: ReadonlyArray<PromiseSettledResult<string[]>>): Resolution {
  const failed = answers.find(
    (answer) => answer.status === 'rejected' && !NO_RECORDS.has(errorCode(answer.reason)),
  );
  if (failed?.status === 'rejected') return { ok: false, reason: `DNS ${errorCode(failed.reason)}` };
  const addresses = answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
  return addresses.length === 0 ? { ok: false, reason: 'no such name' } : { ok: true, addresses };
}

/** `work`'s value, or 'timeout' once `budgetMs` has passed (the timer never outlives the race). */
async function withinBudget<T>(
  work: Promise<T>,
  budgetMs: number,
  onTimeout: () => void,
): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(
      () => {
        onTimeout();
        resolve('timeout');
      },
      Math.max(0, budgetMs),
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A and AAAA of `host`, within `budgetMs` (a resolver of its own, so a timeout cancels only its queries). */
export async function resolveHost(host: string, dns: DnsSettings, budgetMs: number): Promise<Resolution> {
  const resolver = new Resolver({ timeout: dns.timeoutMs, tries: dns.tries });
  if (dns.servers.length > 0) resolver.setServers([...dns.servers]);
  const answers = Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  const settled = await withinBudget(answers, budgetMs, () => resolver.cancel());
  if (settled === 'timeout') return { ok: false, reason: `no DNS answer within ${budgetMs} ms` };
  return addressesFromAnswers(settled);
}

/** The same bound around a resolver a test gives (a name resolving where the test needs it). */
export async function resolveWith(
  resolve: (host: string) => Promise<string[]>,
  host: string,
  budgetMs: number,
): Promise<Resolution> {
  const answers = Promise.allSettled([resolve(host)]);
  const settled = await withinBudget(answers, budgetMs, () => {});
  if (settled === 'timeout') return { ok: false, reason: `no DNS answer within ${budgetMs} ms` };
  return addressesFromAnswers(settled);
}

import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { fail, ok, type Result } from '@directory/domain';
import {
  DEFAULT_DNS_SETTINGS,
  dnsBudgetMs,
  resolveHost,
  resolveWith,
  type DnsSettings,
  type Resolution,
} from './host-resolution.js';

/**
 * Where a webhook may be sent (server-side request forgery): only to public addresses, on an allowed
 * port, over https, to a URL without credentials. The URL is checked when it is registered and again
 * before every attempt, and the attempt connects to the very address that was checked (see
 * `delivery.ts`), so a DNS answer that changes in between (rebinding) cannot point a delivery inside our
 * network. Every refusal of an address says the same thing (`ADDRESS_REFUSED`), whatever the reason, so
 * the form cannot be used to probe which internal names exist; the reason goes to `onRefused` (the
 * server's log).
 */
export type AddressPolicy = {
  /**
   * Tests only: http:// and https:// to 127.0.0.1, [::1] and localhost, on any port. No other private
   * address.
   */
  allowLoopback: boolean;
  /** WEBHOOK_ALLOWED_PORTS: the ports a URL may name; 443 unless given. */
  allowedPorts?: readonly number[] | undefined;
  /** WEBHOOK_DNS_*: the resolver's servers, timeout and tries; the system's servers unless given. */
  dns?: DnsSettings | undefined;
  /** Tests: a host's addresses without DNS (bounded like DNS). */
  resolve?: ((host: string) => Promise<string[]>) | undefined;
  /** Why an address was refused: for the server's log, never for the account. */
  onRefused?: ((refusal: { host: string; reason: string }) => void) | undefined;
};

/** A registered URL, parsed: `host` without brackets, `port` as the request uses it. */
export type EndpointTarget = { url: URL; host: string; port: number };

/** An address a request may connect to, with its family for the socket. */
export type CheckedAddress = { address: string; family: 4 | 6 };

/** The one answer to every address refusal: unresolvable, private, loopback, no answer in time. */
export const ADDRESS_REFUSED = 'the host of the URL is not a public address we can deliver to';

export const DEFAULT_ALLOWED_PORTS: readonly number[] = [443];

export const URL_MAX_LENGTH = 2_048;

const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::1']);

// Refused even where ipaddr.js calls them unicast: a second list, so one library's table is not the only
// guard. IPv4 ones also apply to IPv4-mapped IPv6 addresses (unwrapped first).
const REFUSED_V4 = [
  '0.0.0.0/8', // "this network"; 0.0.0.0 reaches the local host on Linux
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local, cloud metadata (169.254.169.254)
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24', // documentation
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, broadcast
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));
const REFUSED_V6 = [
  '::/128',
  '::1/128',
  '64:ff9b::/96', // NAT64: embeds an IPv4 address
  '64:ff9b:1::/48',
  '100::/64', // discard
  '2001::/32', // Teredo
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4: embeds an IPv4 address
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // site-local (deprecated)
  'ff00::/8', // multicast
].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** Whether `address` (an IP address as Node reads them: dotted quad or IPv6) is a public unicast one. */
export function isPublicAddress(address: string): boolean {
  // Node's strict reading: ipaddr.js would also take classful forms such as 1.2.3.
  if (isIP(address) === 0) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.range() !== 'unicast') return false;
  if (parsed.kind() === 'ipv4') {
    const v4 = parsed as ipaddr.IPv4;
    return !REFUSED_V4.some((range) => v4.match(range));
  }
  const v6 = parsed as ipaddr.IPv6;
  return v6.match(GLOBAL_UNICAST_V6) && !REFUSED_V6.some((range) => v6.match(range));
}

/** Whether a request may connect to `address` under the policy. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  if (allowLoopback && isLoopbackAddress(address)) return true;
  return isPublicAddress(address);
}

function normalized(address: string): string {
  return isIP(address) === 0 ? address : ipaddr.process(address).toString();
}

/** `localhost`, `localhost.` and names under it (RFC 6761: they always resolve to loopback). */
function isLocalhostName(host: string): boolean {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  return name === 'localhost' || name.endsWith('.localhost');
}

function isLoopbackAddress(address: string): boolean {
  return LOOPBACK_ADDRESSES.has(normalized(address));
}

/** What a URL naming a refused port is told (the rule is no secret: it is the same for every host). */
export function portRefusal(allowedPorts: readonly number[]): string {
  return allowedPorts.length === 1
    ? `the port of the URL must be ${allowedPorts[0]}`
    : `the port of the URL must be one of ${allowedPorts.join(', ')}`;
}

/**
 * Whether a request may go to `port` of `address`: an allowed port, or any port of a loopback address
 * when loopback is allowed (tests and development run receivers on ephemeral ports).
 */
export function isAllowedPort(port: number, address: string, policy: AddressPolicy): boolean {
  if (policy.allowLoopback && isLoopbackAddress(address)) return true;
  return (policy.allowedPorts ?? DEFAULT_ALLOWED_PORTS).includes(port);
}

/**
 * The pure half of the check: the URL's form, its host when it is an address, and its port whenever
 * that can be known without DNS (always, when loopback is not allowed: a port scan costs no lookup). A
 * host name passes here; its addresses are checked by `checkTarget`. The WHATWG parser has already
 * turned the other spellings of an IPv4 address (hex, octal, decimal, short forms) into dotted decimal.
 */
export function parseEndpointUrl(input: string, policy: AddressPolicy): Result<EndpointTarget> {
  if (input.length > URL_MAX_LENGTH) return fail(`the URL must be at most ${URL_MAX_LENGTH} characters`);
  if (!URL.canParse(input)) return fail('the URL is not valid');
  const url = new URL(input);
  if (url.username !== '' || url.password !== '')
    return fail('the URL must not contain a user name or password');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') return fail('the URL must name a host');
  const literal = isIP(host) !== 0;
  const loopbackHost = literal ? isLoopbackAddress(host) : isLocalhostName(host);
  if (url.protocol === 'http:') {
    if (!(policy.allowLoopback && loopbackHost)) return fail('the URL must use https');
  } else if (url.protocol !== 'https:') {
    return fail('the URL must use https');
  }
  if (loopbackHost && !policy.allowLoopback) return fail(ADDRESS_REFUSED);
  if (literal && !isAllowedAddress(host, policy.allowLoopback)) return fail(ADDRESS_REFUSED);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  // A name that may resolve to loopback (allowed) has its port checked with its address, in checkTarget.
  const portCheckedNow = literal || !policy.allowLoopback;
  if (portCheckedNow && !isAllowedPort(port, host, policy)) {
    return fail(portRefusal(policy.allowedPorts ?? DEFAULT_ALLOWED_PORTS));
  }
  return ok({ url, host, port });
}

/**
 * The address to connect to among a name's `addresses` (pure): the first, provided EVERY address is
 * allowed (any other would let a resolver's second answer reach inside) and the port is allowed there.
 * The error is `{ message, reason }`: what the account is told, and what the log is.
 */
export function chooseAddress(
  addresses: readonly string[],
  port: number,
  policy: AddressPolicy,
): Result<CheckedAddress, { message: string; reason: string }> {
  const [first] = addresses;
  if (first === undefined) return fail({ message: ADDRESS_REFUSED, reason: 'no addresses' });
  const refused = addresses.find((address) => !isAllowedAddress(address, policy.allowLoopback));
  if (refused !== undefined) {
    return fail({ message: ADDRESS_REFUSED, reason: `resolves to ${refused}, not a public address` });
  }
  if (!isAllowedPort(port, first, policy)) {
    const message = portRefusal(policy.allowedPorts ?? DEFAULT_ALLOWED_PORTS);
    return fail({ message, reason: `port ${port} is not allowed` });
  }
  return ok({ address: first, family: isIP(first) === 6 ? 6 : 4 });
}

/** A host's addresses: the host itself when it is one, loopback for `localhost`, else DNS within `budgetMs`. */
function addressesOf(host: string, policy: AddressPolicy, budgetMs: number): Promise<Resolution> {
  if (isIP(host) !== 0) return Promise.resolve({ ok: true, addresses: [host] });
  // Only reached when loopback is allowed (parseEndpointUrl refuses these names otherwise).
  if (isLocalhostName(host)) return Promise.resolve({ ok: true, addresses: ['127.0.0.1', '::1'] });
  if (policy.resolve !== undefined) return resolveWith(policy.resolve, host, budgetMs);
  return resolveHost(host, policy.dns ?? DEFAULT_DNS_SETTINGS, budgetMs);
}

/** The longest `checkTarget` waits for DNS under `policy` (a delivery attempt may give it less). */
export function resolutionBudgetMs(policy: AddressPolicy): number {
  return dnsBudgetMs(policy.dns ?? DEFAULT_DNS_SETTINGS);
}

/**
 * The address a request to `target` connects to (see `chooseAddress`). DNS gets at most `budgetMs`
 * (the policy's timeout times its tries unless less is left of an attempt). Every refusal of an address
 * is `ADDRESS_REFUSED`; its reason goes to `policy.onRefused`.
 */
export async function checkTarget(
  target: EndpointTarget,
  policy: AddressPolicy,
  budgetMs: number = resolutionBudgetMs(policy),
): Promise<Result<CheckedAddress>> {
  const resolution = await addressesOf(target.host, policy, budgetMs);
  const chosen = resolution.ok
    ? chooseAddress(resolution.addresses, target.port, policy)
    : fail({ message: ADDRESS_REFUSED, reason: resolution.reason });
  if (chosen.ok) return chosen;
  policy.onRefused?.({ host: target.host, reason: chosen.error.reason });
  return fail(chosen.error.message);
}

/** Both halves: the URL's form, then its addresses. */
export async function checkEndpointUrl(
  input: string,
  policy: AddressPolicy,
): Promise<Result<{ target: EndpointTarget; address: CheckedAddress }>> {
  const parsed = parseEndpointUrl(input, policy);
  if (!parsed.ok) return parsed;
  const address = await checkTarget(parsed.value, policy);
  if (!address.ok) return address;
  return ok({ target: parsed.value, address: address.value });
}

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { fail, ok, type Result } from '@directory/domain';

/**
 * Where a webhook may be sent (server-side request forgery): only to public addresses, over https, to
 * a URL without credentials. The URL is checked when it is registered and again before every attempt,
 * and the attempt connects to the very address that was checked (see `delivery.ts`), so a DNS answer
 * that changes in between (rebinding) cannot point a delivery inside our network.
 */
export type AddressPolicy = {
  /** Tests only: http:// and https:// to 127.0.0.1, [::1] and localhost. No other private address. */
  allowLoopback: boolean;
  /** A host's addresses; the system resolver unless given (tests make a name resolve where they need). */
  resolve?: ((host: string) => Promise<string[]>) | undefined;
};

/** A registered URL, parsed: `host` without brackets, `port` as the request uses it. */
export type EndpointTarget = { url: URL; host: string; port: number };

/** An address a request may connect to, with its family for the socket. */
export type CheckedAddress = { address: string; family: 4 | 6 };

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
  if (allowLoopback && LOOPBACK_ADDRESSES.has(normalized(address))) return true;
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

/**
 * The pure half of the check: the URL's form, and its host when it is an address. A host name passes
 * here; its addresses are checked by `checkTarget`. The WHATWG parser has already turned the other
 * spellings of an IPv4 address (hex, octal, decimal, short forms) into dotted decimal.
 */
export function parseEndpointUrl(input: string, allowLoopback: boolean): Result<EndpointTarget> {
  if (input.length > URL_MAX_LENGTH) return fail(`the URL must be at most ${URL_MAX_LENGTH} characters`);
  if (!URL.canParse(input)) return fail('the URL is not valid');
  const url = new URL(input);
  if (url.username !== '' || url.password !== '')
    return fail('the URL must not contain a user name or password');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') return fail('the URL must name a host');
  const literal = isIP(host) !== 0;
  const loopbackHost = literal ? LOOPBACK_ADDRESSES.has(normalized(host)) : isLocalhostName(host);
  if (url.protocol === 'http:') {
    if (!(allowLoopback && loopbackHost)) return fail('the URL must use https');
  } else if (url.protocol !== 'https:') {
    return fail('the URL must use https');
  }
  if (loopbackHost && !allowLoopback) return fail('the URL must not point to this server (loopback)');
  if (literal && !isAllowedAddress(host, allowLoopback)) {
    return fail('the URL must not point to a private or reserved address');
  }
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return ok({ url, host, port });
}

async function systemResolve(host: string): Promise<string[]> {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

/**
 * The address a request to `target` connects to: the host itself when it is an address, otherwise the
 * first of its addresses, provided EVERY address the name has is allowed (any other would let a
 * resolver's second answer reach inside).
 */
export async function checkTarget(
  target: EndpointTarget,
  policy: AddressPolicy,
): Promise<Result<CheckedAddress>> {
  const family = isIP(target.host);
  if (family === 4 || family === 6) {
    return isAllowedAddress(target.host, policy.allowLoopback)
      ? ok({ address: target.host, family })
      : fail('the URL must not point to a private or reserved address');
  }
  let addresses: string[];
  try {
    addresses = await (policy.resolve ?? systemResolve)(target.host);
  } catch {
    return fail(`the host ${target.host} could not be resolved`);
  }
  if (addresses.length === 0) return fail(`the host ${target.host} could not be resolved`);
  if (!addresses.every((address) => isAllowedAddress(address, policy.allowLoopback))) {
    return fail(`the host ${target.host} resolves to a private or reserved address`);
  }
  const [first = ''] = addresses;
  return ok({ address: first, family: isIP(first) === 6 ? 6 : 4 });
}

/** Both halves: the URL's form, then its addresses. */
export async function checkEndpointUrl(
  input: string,
  policy: AddressPolicy,
): Promise<Result<{ target: EndpointTarget; address: CheckedAddress }>> {
  const parsed = parseEndpointUrl(input, policy.allowLoopback);
  if (!parsed.ok) return parsed;
  const address = await checkTarget(parsed.value, policy);
  if (!address.ok) return address;
  return ok({ target: parsed.value, address: address.value });
}

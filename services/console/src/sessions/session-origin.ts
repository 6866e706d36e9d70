import { isIP } from 'node:net';
import Bowser from 'bowser';
import { clientAddressGroup } from '@directory/http-server';

/** The longest User-Agent kept with a session: enough to name the browser, no more. */
export const MAX_USER_AGENT_LENGTH = 256;

/**
 * The network a client's address belongs to, as the sessions page shows it: an IPv4 address's /24, an
 * IPv6 address's /48 (an IPv4-mapped IPv6 address counts as IPv4). Enough to tell "home" from
 * "elsewhere" without keeping anyone's full address.
 */
export function addressRangeOf(ip: string): string | null {
  const address = isIP(ip) === 6 ? clientAddressGroup(ip, 48) : ip;
  if (address.endsWith('/48')) return address;
  if (isIP(address) !== 4) return null;
  const [a, b, c] = address.split('.');
  return `${a}.${b}.${c}.0/24`;
}

/** "Firefox 132 on Linux": the browser and system a User-Agent names (bowser), or a plain fallback. */
export function browserNameOf(userAgent: string | null): string {
  if (userAgent === null || userAgent.trim() === '') return 'Unknown browser';
  const parsed = Bowser.parse(userAgent.slice(0, MAX_USER_AGENT_LENGTH));
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const system = parsed.os.name ?? '';
  if (browser === '') return system === '' ? 'Unknown browser' : `Unknown browser on ${system}`;
  return system === '' ? browser : `${browser} on ${system}`;
}

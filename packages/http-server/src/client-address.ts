import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The bounds of config CLIENT_IPV6_PREFIX_BITS. */
export const MIN_IPV6_PREFIX_BITS = 32;
export const MAX_IPV6_PREFIX_BITS = 128;

/**
 * The group a client address is counted in by every per-address limit. An IPv4 address is its own
 * group. An IPv6 address stands for its network: one subscriber usually gets a whole /64 (2^64
 * addresses), so counting each address apart would let one client reset every limit by changing its
 * address; the address is masked to its first `ipv6PrefixBits` bits and written in canonical form
 * (RFC 5952) with the prefix length, e.g. `2001:db8:1:2::/64`. An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, what a dual-stack socket reports for an IPv4 peer) is the IPv4 address.
 * Anything that is not an address (a garbled X-Forwarded-For entry) is returned unchanged, a group of
 * its own.
 */
export function clientAddressGroup(ip: string, ipv6PrefixBits: number): string {
  if (
    !Number.isInteger(ipv6PrefixBits) ||
    ipv6PrefixBits < MIN_IPV6_PREFIX_BITS ||
    ipv6PrefixBits > MAX_IPV6_PREFIX_BITS
  ) {
    throw new RangeError(
      `IPv6 prefix length must be an integer from ${MIN_IPV6_PREFIX_BITS} to ${MAX_IPV6_PREFIX_BITS}`,
    );
  }
  // Node's strict check first, so the parser below only ever sees a well-formed IPv6 address.
  if (isIP(ip) !== 6) return ip;
  const address = ipaddr.IPv6.parse(ip);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  const mask = ipaddr.IPv6.subnetMaskFromPrefixLength(ipv6PrefixBits).toByteArray();
  // Built from the masked bytes alone: a zone index (`%eth0`) is not part of the network.
  const network = address.toByteArray().map((byte, index) => byte & (mask[index] ?? 0));
  return `${ipaddr.fromByteArray(network).toString()}/${ipv6PrefixBits}`;
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientAddressGroup } from '../src/client-address.js';

const bytes = (length: number) => fc.uint8Array({ minLength: length, maxLength: length });
const ipv6Bytes = bytes(16).filter((address) => !isIpv4Mapped(address));
const prefixBits = fc.integer({ min: 32, max: 128 });
const ipv4 = bytes(4).map((address) => address.join('.'));

/** ::ffff:0:0/96, the block a dual-stack socket reports IPv4 peers in. */
function isIpv4Mapped(address: Uint8Array): boolean {
  return address.subarray(0, 10).every((byte) => byte === 0) && address[10] === 0xff && address[11] === 0xff;
}

/** The ways an IPv6 address is written: full, upper case, without leading zeros, compressed (WHATWG URL). */
function spellings(address: Uint8Array): string[] {
  const groups = Array.from({ length: 8 }, (_, index) =>
    (((address[index * 2] ?? 0) << 8) | (address[index * 2 + 1] ?? 0)).toString(16),
  );
  const full = groups.map((group) => group.padStart(4, '0')).join(':');
  const compressed = new URL(`http://[${full}]/`).hostname.slice(1, -1);
  return [full, full.toUpperCase(), groups.join(':'), compressed];
}

/** `base` with every bit after the first `bits` taken from `noise`. */
function samePrefix(base: Uint8Array, noise: Uint8Array, bits: number): Uint8Array {
  return base.map((byte, index) => {
    const kept = Math.min(8, Math.max(0, bits - index * 8));
    const mask = (0xff << (8 - kept)) & 0xff;
    return (byte & mask) | ((noise[index] ?? 0) & ~mask & 0xff);
  });
}

/** `base` with one bit flipped. */
function flipped(base: Uint8Array, bit: number): Uint8Array {
  const copy = Uint8Array.from(base);
  copy[bit >> 3] = (copy[bit >> 3] ?? 0) ^ (0x80 >> (bit & 7));
  return copy;
}

describe('clientAddressGroup: the group every per-address limit counts a client in', () => {
  it('groups an IPv6 address by its /64 by default, in canonical form', () => {
    expect(clientAddressGroup('2001:db8:1:2:3:4:5:6', 64)).toBe('2001:db8:1:2::/64');
    expect(clientAddressGroup('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', 64)).toBe('2001:db8:1:2::/64');
    expect(clientAddressGroup('2001:db8:1:3::1', 64)).toBe('2001:db8:1:3::/64');
    expect(clientAddressGroup('2001:db8:1:2:3:4:5:6', 48)).toBe('2001:db8:1::/48');
    expect(clientAddressGroup('2001:db8:1:2:3:4:5:6', 128)).toBe('2001:db8:1:2:3:4:5:6/128');
    expect(clientAddressGroup('fe80::1%eth0', 64)).toBe('fe80::/64');
  });

  it('leaves IPv4 alone and reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientAddressGroup('192.0.2.1', 64)).toBe('192.0.2.1');
    expect(clientAddressGroup('::ffff:192.0.2.1', 64)).toBe('192.0.2.1');
    expect(clientAddressGroup('::FFFF:c000:0201', 64)).toBe('192.0.2.1');
    // The deprecated IPv4-compatible notation names an IPv4 address too.
    expect(clientAddressGroup('::192.0.2.1', 64)).toBe('192.0.2.1');
    fc.assert(
      fc.property(ipv4, prefixBits, (address, bits) => {
        expect(clientAddressGroup(address, bits)).toBe(address);
        expect(clientAddressGroup(`::ffff:${address}`, bits)).toBe(address);
      }),
    );
  });

  it('puts every address of one /64 in the same group, however it is written', () => {
    fc.assert(
      fc.property(ipv6Bytes, bytes(8), bytes(8), fc.nat(3), fc.nat(3), (base, left, right, i, j) => {
        const a = Uint8Array.from([...base.subarray(0, 8), ...left]);
        const b = Uint8Array.from([...base.subarray(0, 8), ...right]);
        fc.pre(!isIpv4Mapped(a) && !isIpv4Mapped(b));
        const group = clientAddressGroup(spellings(a)[i] ?? '', 64);
        expect(clientAddressGroup(spellings(b)[j] ?? '', 64)).toBe(group);
        expect(group).toMatch(/\/64$/);
      }),
    );
  });

  it('keeps addresses that differ in their first 64 bits apart', () => {
    fc.assert(
      fc.property(ipv6Bytes, ipv6Bytes, (a, b) => {
        fc.pre(a.subarray(0, 8).some((byte, index) => byte !== b[index]));
        expect(clientAddressGroup(spellings(a)[0] ?? '', 64)).not.toBe(
          clientAddressGroup(spellings(b)[0] ?? '', 64),
        );
      }),
    );
  });

  it('for any prefix length: same first bits, same group; one bit apart within them, different groups', () => {
    fc.assert(
      fc.property(
        ipv6Bytes,
        bytes(16),
        prefixBits.chain((bits) => fc.tuple(fc.constant(bits), fc.nat(bits - 1))),
        fc.nat(3),
        (base, noise, [bits, bit], form) => {
          const sibling = samePrefix(base, noise, bits);
          const stranger = flipped(base, bit);
          fc.pre(!isIpv4Mapped(sibling) && !isIpv4Mapped(stranger));
          const group = clientAddressGroup(spellings(base)[3] ?? '', bits);
          expect(clientAddressGroup(spellings(sibling)[form] ?? '', bits)).toBe(group);
          expect(clientAddressGroup(spellings(stranger)[form] ?? '', bits)).not.toBe(group);
        },
      ),
    );
  });

  it('is canonical: a group is the network address of its own prefix', () => {
    fc.assert(
      fc.property(ipv6Bytes, prefixBits, (address, bits) => {
        const group = clientAddressGroup(spellings(address)[1] ?? '', bits);
        const [network = '', length] = group.split('/');
        expect(length).toBe(String(bits));
        expect(clientAddressGroup(network, bits)).toBe(group);
        expect(network).toBe(new URL(`http://[${network}]/`).hostname.slice(1, -1));
      }),
    );
  });

  it('returns what is not an address unchanged, and refuses a prefix length out of range', () => {
    for (const text of ['not-an-address', '', 'unknown', '2001:db8::1::2', '1.2.3']) {
      expect(clientAddressGroup(text, 64)).toBe(text);
    }
    for (const bits of [31, 129, 64.5, Number.NaN]) {
      expect(() => clientAddressGroup('2001:db8::1', bits)).toThrow(RangeError);
    }
  });
});

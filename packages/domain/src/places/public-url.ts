const MAX_PUBLIC_URL_LENGTH = 2048;

// Names that only resolve inside a machine or a private network.
const PRIVATE_HOST_SUFFIXES = ['.localhost', '.local', '.internal'];

/**
 * The parsed URL when a crawled URL may be published as a link, else null: http(s), no credentials, and
 * a public DNS name or a public IP address. Hostnames are checked after WHATWG parsing, which already
 * turns `0x7f.1`, `2130706433` and `%31%32%37.0.0.1` into `127.0.0.1`, so odd spellings cannot sneak past.
 */
export function parsePublicHttpUrl(url: string): URL | null {
  if (url.length > MAX_PUBLIC_URL_LENGTH) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return isPublicHttpLocation(parsed) ? parsed : null;
}

function isPublicHttpLocation(parsed: URL): boolean {
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;

  const hostname = parsed.hostname.replace(/\.$/, '');
  // IPv6 literals have no dot, so the "public name has a dot" rule below always rejects them; saying so
  // here spares parsing ::1, fc00::/7, fe80::/10 and IPv4-mapped forms one by one.
  if (hostname.startsWith('[')) return false;
  const ipv4 = parseIpv4(hostname);
  if (ipv4 !== null) return isPublicIpv4(ipv4);
  if (hostname === 'localhost' || PRIVATE_HOST_SUFFIXES.some((suffix) => hostname.endsWith(suffix)))
    return false;
  // A single-label name ("intranet") only resolves through a local search domain.
  const labels = hostname.split('.');
  return labels.length >= 2 && labels.every((label) => label !== '');
}

function parseIpv4(hostname: string): [number, number, number, number] | null {
  // After WHATWG parsing an IPv4 host is always four decimal octets.
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(hostname);
  if (match === null) return null;
  const octets = match.slice(1).map(Number);
  if (octets.some((octet) => octet > 255)) return null;
  return [octets[0] ?? 0, octets[1] ?? 0, octets[2] ?? 0, octets[3] ?? 0];
}

function isPublicIpv4([a, b]: [number, number, number, number]): boolean {
  if (a === 0) return false; // 0.0.0.0/8 "this network", includes the unspecified address
  if (a === 10) return false; // private
  if (a === 127) return false; // loopback
  if (a === 169 && b === 254) return false; // link-local
  if (a === 172 && b >= 16 && b <= 31) return false; // private
  if (a === 192 && b === 168) return false; // private
  if (a === 100 && b >= 64 && b <= 127) return false; // carrier-grade NAT
  if (a >= 224) return false; // multicast, reserved, broadcast
  return true;
}

/**
 * The hostile ways of naming a host the security suite tries wherever a URL from outside could make the
 * service connect somewhere: each names (or smuggles) a loopback target at `port` in a form a careless
 * parser or allow-list check lets through. Profile URLs (`doctorId`) and webhook endpoints both take the
 * whole list; each adds the forms only its own rules have.
 */
export function hostileOrigins(port: number, scheme: 'http' | 'https' = 'http'): Array<[string, string]> {
  return [
    ['look-alike suffix', `${scheme}://localhost.evil.example:${port}`],
    ['look-alike prefix', `${scheme}://evil-localhost:${port}`],
    ['other loopback name', `${scheme}://127.0.0.1:${port}`],
    ['trailing dot', `${scheme}://localhost.:${port}`],
    ['hex address', `${scheme}://0x7f000001:${port}`],
    ['IPv6 loopback', `${scheme}://[::1]:${port}`],
    ['userinfo before the site', `${scheme}://localhost:${port}@evil.example`],
    ['userinfo naming the site', `${scheme}://evil.example@localhost:${port}`],
    ['empty userinfo', `${scheme}://@localhost:${port}`],
    ['user and password', `${scheme}://user:pass@localhost:${port}`],
    ['IDN homograph (Cyrillic o)', `${scheme}://l\u043ecalhost:${port}`],
    ['punycode look-alike', `${scheme}://xn--lcalhost-9za:${port}`],
    ['tab inside the host', `${scheme}://local\thost:${port}`],
  ];
}

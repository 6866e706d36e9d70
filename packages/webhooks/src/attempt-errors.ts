/**
 * What the delivery log says of an attempt that got no HTTP status (pure). The account reads this, and
 * the account chose the URL: a connection error's code would tell a closed port (ECONNREFUSED) from an
 * unreachable host (EHOSTUNREACH) from a service that is not HTTP (EPROTO), turning deliveries into a
 * port scanner with our egress address. So every connection failure reads the same; the attempt's
 * timeout and the receiver's status stay, and so does a refused certificate, which only a TLS server on
 * an allowed port of a public address can cause and which the account needs to know to fix it.
 */
export const COULD_NOT_CONNECT = 'could not connect';

export const CERTIFICATE_REFUSED = "the receiver's TLS certificate was not accepted";

export function timeoutError(timeoutMs: number): string {
  return `timed out after ${timeoutMs} ms`;
}

// Node's and OpenSSL's codes for a certificate that failed verification after a completed handshake.
const CERTIFICATE_CODES: ReadonlySet<string> = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REJECTED',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** The log's words for a request error: a refused certificate, or "could not connect" for all else. */
export function connectionError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CERTIFICATE_CODES.has(code) ? CERTIFICATE_REFUSED : COULD_NOT_CONNECT;
}

import { PROBLEM_TYPES, type ProblemKind } from '@directory/http-server';

/** What a problem type means and what a client should do about it: the page at its `type` URI. */
const MEANINGS: Record<ProblemKind, string> = {
  invalidParameter:
    'A query or path parameter is invalid. Every bad parameter is named in `errors`, each with the reason; fix them all and send the request again.',
  keyInQuery:
    'An API key was sent in the URL. Keys belong in the X-API-Key header (or Authorization: Bearer). The request was refused before authentication and the value was neither echoed nor logged, but treat the key as leaked: revoke it and create another.',
  unsupportedProtocolVersion:
    'MCP server only: the MCP-Protocol-Version header names a protocol version this server does not speak. Send one of the versions it lists in `detail`.',
  batchNotSupported:
    'MCP server only: the body was a JSON-RPC batch (an array). It was refused whole, no tool ran and no quota was spent; send one message per request.',
  unauthorized:
    'The API key is missing, malformed, unknown, expired or revoked. Do not retry with the same key: create or use a working key.',
  forbiddenOrigin:
    'MCP server only: the Host header is not one this server answers to, or the Origin header is not in its allowlist (DNS rebinding protection).',
  notFound: 'No current published record has this id, or there is no such route or problem type.',
  methodNotAllowed:
    'MCP server only: the endpoint does not take this HTTP method; the Allow header lists the one it takes.',
  rateLimited:
    "A request quota is used up: the key's window, its account's ceiling, or the client address's budget of failed authentications. Wait the Retry-After header's seconds before the next request.",
  unavailable:
    'A backing service (the search cluster, the database or the rate-limit store) is down or slow. Retry later, with backoff.',
  internal:
    'An unexpected server error. The body never carries details; quote the response header X-Request-Id when reporting it.',
};

export type ProblemPage = { type: string; title: string; status: number; description: string };

/** Every problem type the API and the MCP server write, by the name its `type` ends with. */
export const PROBLEM_PAGES: Record<string, ProblemPage> = Object.fromEntries(
  (Object.keys(PROBLEM_TYPES) as ProblemKind[]).map((kind) => {
    const { type, title, status } = PROBLEM_TYPES[kind];
    return [type.slice('/problems/'.length), { type, title, status, description: MEANINGS[kind] }];
  }),
);

/** The representations of a problem type page. */
export type PageFormat = 'html' | 'json';

/**
 * Which representation an Accept header asks for: the one with the higher quality (on a tie, HTML
 * only when its range is the more specific: `*\/*` alone is a program's); JSON when Accept is absent
 * or accepts neither. Ranges are matched by type only: parameters other than `q` are ignored.
 */
export function negotiatePageFormat(accept: string | undefined): PageFormat {
  if (accept === undefined || accept.trim() === '') return 'json';
  let html = 0;
  let json = 0;
  let htmlSpecificity = -1;
  let jsonSpecificity = -1;
  for (const part of accept.split(',')) {
    const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const qParameter = parameters.find((parameter) => parameter.startsWith('q='));
    const quality = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    if (!Number.isFinite(quality) || quality < 0 || quality > 1) continue;
    const htmlMatch = specificity(range, 'text', 'html');
    if (htmlMatch > htmlSpecificity) [html, htmlSpecificity] = [quality, htmlMatch];
    const jsonMatch = Math.max(
      specificity(range, 'application', 'json'),
      specificity(range, 'application', 'problem+json'),
    );
    if (jsonMatch > jsonSpecificity) [json, jsonSpecificity] = [quality, jsonMatch];
  }
  // Accepting neither: JSON all the same (RFC 9110 lets a server disregard Accept rather than answer 406).
  const htmlNamed = html === json && html > 0 && htmlSpecificity > jsonSpecificity;
  return html > json || htmlNamed ? 'html' : 'json';
}

// 2: the exact type, 1: `type/*`, 0: `*/*`, -1: no match. The most specific range sets a type's quality.
function specificity(range: string, type: string, subtype: string): number {
  if (range === `${type}/${subtype}`) return 2;
  if (range === `${type}/*`) return 1;
  if (range === '*/*') return 0;
  return -1;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? '');
// `code` spans of the meanings, as HTML.
const withCode = (text: string): string => escapeHtml(text).replace(/`([^`]*)`/g, '<code>$1</code>');

/** The human page of a problem type: self-contained HTML, no scripts, no external resources. */
export function problemPageHtml(page: ProblemPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} (${page.status}) · Doctor directory API</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}code{background:#f2f2f2;padding:0 .2em}</style>
</head>
<body>
<h1>${escapeHtml(page.title)}</h1>
<p>HTTP status <strong>${page.status}</strong> · problem type <code>${escapeHtml(page.type)}</code></p>
<p>${withCode(page.description)}</p>
<p>Error bodies are RFC 9457 problem details (<code>application/problem+json</code>): <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code> (what went wrong with this request) and <code>errors</code> (each bad parameter and why). The API's reference is at <a href="/docs">/docs</a>, its OpenAPI document at <a href="/openapi.json">/openapi.json</a>.</p>
</body>
</html>
`;
}

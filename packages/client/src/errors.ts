/** One bad parameter of a 400, as the API names it. */
export type ParameterError = { parameter: string; reason: string };

/** An RFC 9457 problem as the API sends it (every 4xx and 5xx). */
export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors: ParameterError[];
};

type ErrorDetails = Problem & {
  /** The `X-Request-Id` the API answered with: quote it when asking the operator about this request. */
  requestId: string | undefined;
  /** Milliseconds the API asked to wait (`Retry-After`), on 429 and 503. */
  retryAfterMs: number | undefined;
  /** The method and URL (never any credential: the key travels only in a header). */
  method: string;
  url: string;
};

/**
 * An answer other than 2xx or 304, after any retries. `type` is the problem type (`/problems/invalid-parameter`,
 * `/problems/rate-limited`, …), `errors` names every bad parameter of a 400.
 */
export class DirectoryApiError extends Error {
  override readonly name = 'DirectoryApiError';
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: readonly ParameterError[];
  readonly requestId: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly method: string;
  readonly url: string;

  constructor(details: ErrorDetails) {
    super(errorMessage(details));
    this.status = details.status;
    this.type = details.type;
    this.title = details.title;
    this.detail = details.detail;
    this.errors = details.errors;
    this.requestId = details.requestId;
    this.retryAfterMs = details.retryAfterMs;
    this.method = details.method;
    this.url = details.url;
  }

  /** The reasons given for `parameter`, e.g. `error.reasonsFor('limit')`. */
  reasonsFor(parameter: string): string[] {
    return this.errors.filter((error) => error.parameter === parameter).map((error) => error.reason);
  }
}

function errorMessage(details: ErrorDetails): string {
  const parameters = details.errors.map((error) => `${error.parameter}: ${error.reason}`).join('; ');
  const detail = details.detail === '' ? '' : `: ${details.detail}`;
  const listed = parameters === '' ? '' : ` (${parameters})`;
  const request = details.requestId === undefined ? '' : ` [request ${details.requestId}]`;
  return `${details.method} ${pathOf(details.url)} answered ${details.status} ${details.title}${detail}${listed}${request}`;
}

// The path alone keeps messages short and free of query values a caller may consider private.
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The problem in an error body, or one made from the status when the body is not a problem (a proxy's
 * HTML page, an empty body): `type` is then `about:blank`, as RFC 9457 says for a plain status.
 */
export function readProblem(status: number, statusText: string, bodyText: string): Problem {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  const fallbackTitle = statusText === '' ? `HTTP ${status}` : statusText;
  if (!isRecord(body)) return { type: 'about:blank', title: fallbackTitle, status, detail: '', errors: [] };
  const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  const errors = Array.isArray(body.errors)
    ? body.errors.filter(isRecord).map((error) => ({
        parameter: text(error.parameter, ''),
        reason: text(error.reason, ''),
      }))
    : [];
  return {
    type: text(body.type, 'about:blank'),
    title: text(body.title, fallbackTitle),
    status,
    detail: text(body.detail, ''),
    errors,
  };
}

/** Removes every occurrence of `secret` from `text` (defence in depth: no message ever carries the key). */
export function redact(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('[redacted]');
}

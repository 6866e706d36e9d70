/**
 * Email addresses, checked in time linear in their length: zod's own `email()` and the console's former
 * pattern are regular expressions that can backtrack far on hostile input, and an email is typed by
 * anyone. Every check looks at the length first, so no pattern ever runs on more than this.
 *
 * RFC 5321 limits a forward path to 256 octets, angle brackets included: no deliverable address is longer.
 */
export const MAX_EMAIL_LENGTH = 254;

// name@host.tld: no whitespace, one @, a dot inside the domain (neither its first nor its last
// character) — what the console has always accepted. Each part ends at a character the part cannot
// contain (the @, the domain's first dot after its first character), so the match never goes back.
const ACCOUNT_EMAIL = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;

/**
 * An account's email (console sign-up and sign-in, the keys CLI): at most `MAX_EMAIL_LENGTH`
 * characters, of the form name@host.tld with no whitespace.
 */
export function isAccountEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && ACCOUNT_EMAIL.test(value);
}

/**
 * The email of a published record: dot-separated ASCII words before the @, host names after it and a
 * top-level domain of letters. The grammar the API has always published (in its OpenAPI document too),
 * now our own pattern so the lint proves it linear.
 */
export const PUBLIC_EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** Whether a record's email may be published: at most `MAX_EMAIL_LENGTH` characters, `PUBLIC_EMAIL_PATTERN`. */
export function isPublicEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && PUBLIC_EMAIL_PATTERN.test(value);
}

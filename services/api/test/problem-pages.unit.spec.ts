import { describe, expect, it } from 'vitest';
import { PROBLEM_PAGES, negotiatePageFormat, problemPageHtml } from '../src/routes/problems/problem-pages.js';

describe('problem type pages', () => {
  it('has a page for every problem type, named as its type ends', () => {
    expect(Object.keys(PROBLEM_PAGES).sort()).toEqual([
      'batch-not-supported',
      'forbidden-origin',
      'internal',
      'invalid-parameter',
      'key-in-query',
      'method-not-allowed',
      'not-found',
      'rate-limited',
      'unauthorized',
      'unavailable',
      'unsupported-protocol-version',
    ]);
    for (const [name, page] of Object.entries(PROBLEM_PAGES)) {
      expect(page.type).toBe(`/problems/${name}`);
      expect(page.description.length, name).toBeGreaterThan(40);
    }
  });

  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/json', 'json'],
    ['application/problem+json', 'json'],
    ['text/html', 'html'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'html'],
    ['application/json, text/html;q=0.5', 'json'],
    ['text/html;q=0.2, application/*;q=0.9', 'json'],
    ['text/*, application/json;q=0.1', 'html'],
    ['text/html;q=0, */*', 'json'],
    ['image/png', 'json'],
    ['text/html;q=abc', 'json'],
  ] as const)('answers Accept %j with %s', (accept, format) => {
    expect(negotiatePageFormat(accept)).toBe(format);
  });

  it('negotiates a long hostile Accept header in linear time', () => {
    const accept = `${'text/html;q=0.1;'.repeat(20_000)},`.repeat(5);
    const started = performance.now();
    negotiatePageFormat(accept);
    // About 0.1 s alone (0.6 s with both cores busy); a quadratic reading of these 1.6 MB would take hours,
    // so a bound well above a busy machine's time still tells linear from not.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('writes a self-contained page with the code spans of its description', () => {
    const html = problemPageHtml(PROBLEM_PAGES['invalid-parameter']!);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<h1>Invalid request parameter</h1>');
    expect(html).toContain('<code>errors</code>');
    expect(html).not.toMatch(/<script|https?:\/\//);
  });
});

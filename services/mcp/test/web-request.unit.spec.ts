import { describe, expect, it } from 'vitest';
import { toWebRequest } from '../src/mcp.routes.js';

describe('toWebRequest (what the SDK transport gets to see)', () => {
  it("passes the MCP headers on and never the client's key or anything else", () => {
    const request = toWebRequest({
      method: 'POST',
      headers: {
        authorization: 'Bearer dk_live_secret',
        'x-api-key': 'dk_live_secret',
        cookie: 'session=1',
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-06-18',
      },
    });
    expect([...request.headers.keys()].sort()).toEqual(['accept', 'content-type', 'mcp-protocol-version']);
    expect(request.method).toBe('POST');
  });
});

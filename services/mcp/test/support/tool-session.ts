import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { DoctorPage } from '@directory/domain';
import { createMcpHarness } from './mcp-harness.js';

/**
 * One MCP client and the HTTP API beside it, over the shared test dataset with one key: what a spec of
 * the tools needs to call a tool and compare its answer with the API's to the same request.
 */
export type ToolSession = {
  client: Client;
  call: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;
  /** GET on the API with the session's key. */
  apiGet: (url: string) => Promise<LightMyRequestResponse>;
  close: () => Promise<void>;
};

export async function openToolSession(label: string): Promise<ToolSession> {
  const harness = await createMcpHarness(label);
  const { secret } = await harness.createKey();
  const client = await harness.connect(await harness.startMcp(), secret);
  const api: FastifyInstance = await harness.api();
  return {
    client,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    apiGet: async (url) => api.inject({ url, headers: { authorization: `Bearer ${secret}` } }),
    close: () => harness.close(),
  };
}

/** A tool result's text parts, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** Tool arguments as the query string of the same API request. */
export function queryOf(args: Record<string, unknown>): string {
  return Object.entries(args)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join('&');
}

/** The API search of the tool's `args`: the tool asks for suggestions unless told not to. */
export function apiSearchUrl(args: Record<string, unknown>): string {
  const suggestions = args.suggestions === false || args.suggestions === true ? {} : { suggestions: true };
  return `/api/v1/doctors?${queryOf({ ...args, ...suggestions })}`;
}

/** search_doctors' page for `args`, checked equal to the API's answer to the same request. */
export async function searchLikeApi(
  session: ToolSession,
  args: Record<string, unknown>,
): Promise<DoctorPage> {
  const result = await session.call('search_doctors', args);
  expect(result.isError ?? false, textOf(result)).toBe(false);
  expect(result.structuredContent).toEqual((await session.apiGet(apiSearchUrl(args))).json());
  return result.structuredContent as DoctorPage;
}

/** Each bad search is refused by the tool with the reason the API gives for the same query string. */
export async function expectRefusedLikeApi(
  session: ToolSession,
  cases: ReadonlyArray<readonly [Record<string, unknown>, string]>,
): Promise<void> {
  for (const [args, query] of cases) {
    const result = await session.call('search_doctors', args);
    expect(result.isError, JSON.stringify(args)).toBe(true);
    const http = await session.apiGet(`/api/v1/doctors?${query}`);
    expect(http.statusCode).toBe(400);
    const [error] = http.json<{ errors: Array<{ parameter: string; reason: string }> }>().errors;
    expect(textOf(result)).toContain(`- ${error?.parameter}: ${error?.reason}`);
  }
}

import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

export type ProblemBody = {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors: Array<{ parameter: string; reason: string }>;
};

/** Asserts an RFC 9457 problem response with this status; returns the body. */
export function expectProblem(response: LightMyRequestResponse, status: number): ProblemBody {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json<ProblemBody>();
  expect(Object.keys(body).sort()).toEqual(['detail', 'errors', 'status', 'title', 'type']);
  expect(body.status).toBe(status);
  expect(body.detail).not.toMatch(/\bat .+:\d+:\d+/); // no stack frames
  return body;
}

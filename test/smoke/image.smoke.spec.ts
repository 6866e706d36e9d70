import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The image cannot be built here (no Docker engine): its Dockerfile is held to the deployment contract
// (docs/deployment.md) and its health check script is run against a stand-in operator listener.
const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');
const dockerignore = readFileSync(new URL('../../.dockerignore', import.meta.url), 'utf8').split('\n');
const HEALTHCHECK_SCRIPT = new URL('../../deploy/docker/healthcheck.mjs', import.meta.url).pathname;

type Instruction = { keyword: string; arguments: string };
type Stage = { from: string; name: string | undefined; instructions: Instruction[] };

/** The Dockerfile's stages, each instruction on one line (continuations joined, comments dropped). */
function stages(): Stage[] {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const result: Stage[] = [];
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), arguments: rest.join(' ') };
    if (instruction.keyword === 'FROM') {
      const [from = '', as, name] = rest;
      result.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else {
      result.at(-1)?.instructions.push(instruction);
    }
  }
  return result;
}

function argumentsOf(stage: Stage | undefined, keyword: string): string[] {
  return (stage?.instructions ?? [])
    .filter((entry) => entry.keyword === keyword)
    .map((entry) => entry.arguments);
}

describe('Dockerfile', () => {
  const all = stages();
  const runtime = all.at(-1);

  it('builds on Node 20 slim and compiles in a build stage', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-(?:bookworm-)?slim$/m);
    const build = all.find((stage) => stage.name === 'build');
    expect(argumentsOf(build, 'RUN').join(' ')).toMatch(/npm ci .*npm run build/);
  });

  it('keeps of the build only the bundle, the directory command and the health check', () => {
    // The layout `npm run build` writes (infra/build/build.ts: dist/directory.js, dist/chunks/, their
    // source maps and the metafile) and bin/directory.js runs.
    const build = all.find((stage) => stage.name === 'build');
    expect(argumentsOf(build, 'RUN').join(' ')).toContain(
      'cp -r --parents dist bin/directory.js deploy/docker/healthcheck.mjs /out/ && rm /out/dist/directory.meta.json',
    );
    expect(readFileSync(new URL('../../bin/directory.js', import.meta.url), 'utf8')).toContain(
      "new URL('../dist/directory.js', import.meta.url)",
    );
  });

  it('runs the compiled code with production dependencies only, as a non-root user', () => {
    expect(runtime?.name).toBe('runtime');
    const dependencies = all.find((stage) => stage.name === 'production-dependencies');
    expect(argumentsOf(dependencies, 'RUN').join(' ')).toContain('npm ci --omit=dev');
    expect(argumentsOf(runtime, 'COPY')).toEqual([
      '--from=production-dependencies /app/ ./',
      '--from=build /out/ ./',
    ]);
    expect(argumentsOf(runtime, 'ENV')).toContain('NODE_ENV=production');
    expect(argumentsOf(runtime, 'USER')).toEqual(['node']);
  });

  it('starts the directory command and checks the operator listener with node', () => {
    expect(argumentsOf(runtime, 'ENTRYPOINT')).toEqual(['["node", "bin/directory.js"]']);
    expect(argumentsOf(runtime, 'HEALTHCHECK')).toHaveLength(1);
    expect(argumentsOf(runtime, 'HEALTHCHECK')[0]).toMatch(
      /CMD \["node", "deploy\/docker\/healthcheck\.mjs"\]$/,
    );
  });

  it('keeps installed, built and secret files out of the build context', () => {
    expect(dockerignore).toEqual(expect.arrayContaining(['.git', '**/node_modules', '**/dist', '.env']));
  });
});

describe('deploy/docker/healthcheck.mjs', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    // A stand-in operator listener: alive, not ready.
    server = createServer((request, response) => {
      response.statusCode = request.url === '/livez' ? 200 : 503;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function exitCode(args: string[], environment: Record<string, string>): Promise<number> {
    try {
      await promisify(execFile)(process.execPath, [HEALTHCHECK_SCRIPT, ...args], {
        env: { PATH: process.env.PATH ?? '', ...environment },
        timeout: 10_000,
      });
      return 0;
    } catch (error) {
      return (error as { code: number }).code;
    }
  }

  it("probes /livez on the command's operator port, or /readyz when asked", async () => {
    expect(await exitCode(['mcp'], { MCP_OPS_PORT: String(port) })).toBe(0);
    expect(await exitCode(['mcp', '/readyz'], { MCP_OPS_PORT: String(port) })).toBe(1);
    expect(await exitCode(['worker'], { OPS_PORT_FOR_HEALTHCHECK: String(port) })).toBe(0);
  });

  it('fails when nothing answers, and passes for a command without a listener', async () => {
    // The api's port here is the default 9460 unless something listens there: point it at a closed one.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await exitCode(['api'], { API_OPS_PORT: String(closedPort) })).toBe(1);
    expect(await exitCode(['migrate'], {})).toBe(0);
  });
});

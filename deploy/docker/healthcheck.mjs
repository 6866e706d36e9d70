// The image's health check: exits 0 when a process's operator listener answers 200 on a probe path,
// 1 otherwise. Plain node (a slim image has no curl), loopback only, bounded by a timeout.
//
//   node deploy/docker/healthcheck.mjs [command] [path]
//
// command: api, mcp, console or worker (default: the command PID 1 runs, `node bin/directory.js <command>`);
// path: /livez (default) or /readyz. OPS_PORT_FOR_HEALTHCHECK overrides the port. A command without an
// operator listener (migrate and the operator commands) has nothing to probe and counts as healthy.
import { request } from 'node:http';
import { readFileSync } from 'node:fs';

const OPS_PORTS = {
  api: { variable: 'API_OPS_PORT', defaultPort: 9460 },
  mcp: { variable: 'MCP_OPS_PORT', defaultPort: 9461 },
  console: { variable: 'CONSOLE_OPS_PORT', defaultPort: 9462 },
  worker: { variable: 'WORKER_OPS_PORT', defaultPort: 9463 },
};
const TIMEOUT_MS = 2_000;

/** The argument after bin/directory.js in PID 1's command line (also under an init such as tini). */
function commandOfPid1() {
  const argv = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
  const script = argv.findIndex((argument) => argument.endsWith('bin/directory.js'));
  return script === -1 ? undefined : argv[script + 1];
}

function opsPort(command) {
  const override = process.env.OPS_PORT_FOR_HEALTHCHECK;
  if (override !== undefined && override !== '') return Number(override);
  const listener = OPS_PORTS[command];
  if (listener === undefined) return undefined;
  const configured = process.env[listener.variable];
  return configured !== undefined && configured !== '' ? Number(configured) : listener.defaultPort;
}

const [command = commandOfPid1(), path = '/livez'] = process.argv.slice(2);
const port = opsPort(command);
if (port === undefined) process.exit(0);
if (port === 0) {
  console.error(`the ${command} operator listener is off (port 0): nothing to probe`);
  process.exit(1);
}

const probe = request({ host: '127.0.0.1', port, path, timeout: TIMEOUT_MS }, (response) => {
  response.resume();
  console.log(`${path} on port ${port}: ${response.statusCode}`);
  process.exit(response.statusCode === 200 ? 0 : 1);
});
probe.on('timeout', () => probe.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
probe.on('error', (error) => {
  console.error(`${path} on port ${port}: ${error.message}`);
  process.exit(1);
});
probe.end();

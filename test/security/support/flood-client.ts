// A flood of well-formed random API keys, run as its own process by the flood spec so that its
// client-side work does not share the event loop of the server or of the client being measured.
// Usage: flood-client.ts <url> <requests> <concurrency> <local address>; prints one JSON summary line.
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { generateApiKey } from '@directory/domain';

const [url = '', requestsArgument = '0', concurrencyArgument = '1', localAddress = '127.0.0.1'] =
  process.argv.slice(2);
const requests = Number(requestsArgument);
const concurrency = Number(concurrencyArgument);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const statuses: Record<number, number> = {};
let sent = 0;

function send(): Promise<number> {
  const key = generateApiKey(randomBytes(32)).secret;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent, localAddress, headers: { 'x-api-key': key } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function worker(): Promise<void> {
  while (sent < requests) {
    sent += 1;
    const status = await send();
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
}

const started = performance.now();
process.stdout.write('flood started\n');
await Promise.all(Array.from({ length: concurrency }, worker));
agent.destroy();
process.stdout.write(
  `flood done ${JSON.stringify({ statuses, seconds: (performance.now() - started) / 1000 })}\n`,
);

// The attacking key of `bench:hostile-header`, run as its own process so that its client-side work
// shares no event loop with the server or with the client being measured. Sends GET <url> with a hostile
// If-None-Match header at <rate> requests per second, evenly spaced, over <connections> keep-alive
// connections, for <seconds>; prints "hostile started", then one summary line "hostile done {json}".
// Usage: hostile-header-client.ts <url> <key> <rate> <connections> <seconds> <spaces>
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

const [
  url = '',
  key = '',
  rateArgument = '1',
  connectionsArgument = '1',
  secondsArgument = '1',
  spaces = '0',
] = process.argv.slice(2);
const rate = Number(rateArgument);
const connections = Number(connectionsArgument);
const seconds = Number(secondsArgument);
// A list element that fails to parse after a long run of whitespace: what made a backtracking parser stall.
const hostileValue = `"a",${' '.repeat(Number(spaces))}x`;
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const statuses: Record<number, number> = {};
const latencies: number[] = [];
const total = Math.floor(rate * seconds);
let next = 0;

function send(): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { agent, headers: { 'x-api-key': key, 'if-none-match': hostileValue } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const started = performance.now();

/** One connection: takes the next request of the even schedule, waits for its time, sends it. */
async function connection(): Promise<void> {
  while (next < total) {
    const index = next;
    next += 1;
    const due = started + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const sentAt = performance.now();
    const status = await send();
    latencies.push(performance.now() - sentAt);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
}

process.stdout.write('hostile started\n');
await Promise.all(Array.from({ length: connections }, connection));
agent.destroy();
latencies.sort((a, b) => a - b);
const p99 = latencies[Math.max(0, Math.ceil(latencies.length * 0.99) - 1)] ?? 0;
process.stdout.write(
  `hostile done ${JSON.stringify({ sent: latencies.length, statuses, seconds: (performance.now() - started) / 1000, p99Ms: p99 })}\n`,
);

// `npm run demo`: the whole platform on this machine, seeded with realistic sample data.
// Services up → migrate → generate events → worker → ingest through the real queue (progress bar) →
// the sandbox's sample data → a demo API key and a demo test key → a local mail receiver → API, MCP server
// and console. Ctrl-C stops everything this command started.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRedisClient, loadConfigOrExit } from '@directory/config';
import { createDatabase, ensureDatabaseExists, migrateToLatest } from '@directory/database';
import {
  MAX_ACTIVE_KEYS_PER_ACCOUNT,
  createApiKey,
  createKeyVouches,
  ensureAccount,
  listApiKeys,
  revokeApiKey,
} from '@directory/keys';
import { generateEvents } from '@directory/sample-data';
import { startMailReceiver } from '@directory/testing';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '42' },
  },
});
const count = Number(values.count);
const seed = Number(values.seed);
if (!Number.isInteger(count) || count <= 0 || !Number.isInteger(seed)) {
  console.error('demo: --count must be a positive integer and --seed an integer');
  process.exit(2);
}

const config = loadConfigOrExit();
const say = (line: string) => process.stderr.write(`[demo] ${line}\n`);
const children: Array<{ name: string; child: ChildProcess }> = [];
/** The `directory` command from its sources, as `npm run <command>` runs it. */
const DIRECTORY = ['--import', 'tsx', 'services/directory/src/directory.ts'];
let stopping = false;

async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    say('stopping everything the demo started …');
    await Promise.all(
      children.map(async ({ child }) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await once(child, 'exit');
        clearTimeout(timer);
      }),
    );
    if (startedServices)
      execFileSync('bash', ['infra/local/services.sh', 'down'], { cwd: root, stdio: 'inherit' });
  }
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

/** Starts `directory <command>`; resolves once its output matches `ready` (or rejects if it exits first). */
function start(command: string, ready: RegExp, inheritOutput = false): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...DIRECTORY, command], {
    cwd: root,
    // No load balancer in front of a local demo: Ctrl-C stops the servers without a drain.
    env: { SHUTDOWN_DRAIN_MS: '0', ...process.env },
    stdio: ['ignore', inheritOutput ? 'inherit' : 'pipe', inheritOutput ? 'inherit' : 'pipe'],
  });
  children.push({ name: command, child });
  let output = '';
  return new Promise((resolve, reject) => {
    if (inheritOutput) {
      resolve(child);
      return;
    }
    let isReady = false;
    const onData = (chunk: Buffer) => {
      // Only the tail is kept (the error message shows it): services log every request for as long as
      // the demo runs.
      output = (output + chunk.toString()).slice(-4_000);
      if (!isReady && ready.test(output)) {
        isReady = true;
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      if (!stopping)
        reject(new Error(`${command} exited with ${code} before it was ready:\n${output.slice(-2_000)}`));
    });
  });
}

let startedServices = false;
try {
  say('making PostgreSQL, Redis and Elasticsearch reachable …');
  // If any of them was down, `up` starts it, and Ctrl-C will stop what it started (services.sh down).
  const status = spawnSync('bash', ['infra/local/services.sh', 'status'], { cwd: root, encoding: 'utf8' });
  startedServices = /: down/.test(status.stderr);
  // The demo needs only the servers, not the test tools (PgBouncer, Chromium) a plain `up` installs.
  execFileSync('bash', ['infra/local/services.sh', 'up', '--servers-only'], { cwd: root, stdio: 'inherit' });

  say('migrating the database …');
  await ensureDatabaseExists(config.DATABASE_URL);
  const db = createDatabase(config.DATABASE_URL, { maxConnections: 2 });
  await migrateToLatest(db);

  const dataDir = join(root, '.cache');
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, `demo-events-${count}-${seed}.ndjson`);
  if (!existsSync(file)) {
    say(`generating ${count} sample events (seed ${seed}) → ${file}`);
    const out = createWriteStream(file);
    for (const event of generateEvents({ count, seed })) {
      if (!out.write(`${JSON.stringify(event)}\n`)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
  }

  say('starting the ingest worker …');
  await start('worker', /worker started/);

  say('ingesting the sample events through the queue …');
  const ingest = spawn(process.execPath, [...DIRECTORY, 'ingest', file, '--wait'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [ingestCode] = (await once(ingest, 'exit')) as [number | null];
  if (ingestCode !== 0) throw new Error(`ingest exited with ${ingestCode}`);

  say('loading the sandbox (what test keys read) …');
  const sandbox = spawn(process.execPath, [...DIRECTORY, 'sandbox', 'load'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [sandboxCode] = (await once(sandbox, 'exit')) as [number | null];
  if (sandboxCode !== 0) throw new Error(`sandbox load exited with ${sandboxCode}`);

  // Two demo keys per run, live and test; the oldest demo keys are revoked to make room for them
  // (keys are listed newest first).
  const account = await ensureAccount(db, 'demo@doctor-directory.example');
  const active = (await listApiKeys(db, account.id)).filter((key) => key.revokedAt === null);
  const oldest = active.slice(MAX_ACTIVE_KEYS_PER_ACCOUNT - 2);
  if (oldest.length > 0) {
    const redis = createRedisClient(config, 'service');
    try {
      for (const key of oldest) await revokeApiKey(db, createKeyVouches(redis, config.REDIS_PREFIX), key.id);
    } finally {
      redis.disconnect();
    }
  }
  const demoKey = (mode: 'live' | 'test') =>
    createApiKey(db, { accountId: account.id, name: `demo ${mode} ${new Date().toISOString()}`, mode });
  const { secret } = await demoKey('live');
  const { secret: testSecret } = await demoKey('test');
  await db.destroy();

  // The console mails verification and password-reset links: without an SMTP server of the user's own
  // (SMTP_URL), a local receiver on the console's default (127.0.0.1:2525) keeps them as files.
  const mailDir = join(dataDir, 'demo-mail');
  let mailLine = `  Console mails  sent to SMTP_URL (${config.SMTP_URL ?? ''})`;
  if (config.SMTP_URL === undefined) {
    say(`starting a local mail receiver on 127.0.0.1:2525 (mails → ${mailDir}) …`);
    await startMailReceiver({
      port: 2525,
      directory: mailDir,
      onMail: (mail) => say(`mail to ${mail.to.join(', ')}: "${mail.subject}" → ${mailDir}`),
    });
    mailLine = `  Console mails  ${mailDir}/  (one .txt and one .eml per mail: sign-up and password-reset links)`;
  }

  say('starting the API, the MCP server and the console …');
  await Promise.all(['api', 'mcp', 'console'].map((server) => start(server, /Server listening at/)));

  const api = `http://${config.HOST}:${config.API_PORT}`;
  const lines = [
    '',
    'The doctor directory is running.',
    '',
    `  API            ${api}/api/v1   (reference: ${api}/docs, OpenAPI: ${api}/openapi.json)`,
    `  MCP server     http://${config.HOST}:${config.MCP_PORT}/mcp   (Authorization: Bearer <key>)`,
    `  Key console    http://${config.HOST}:${config.CONSOLE_PORT}/`,
    mailLine,
    '',
    `  Demo API key   ${secret}`,
    `  Demo test key  ${testSecret}   (reads the sandbox's sample data: docs/api.md "Sandbox")`,
    '',
    'Try:',
    `  curl -s -H "X-API-Key: ${secret}" ${api}/api/v1/key`,
    `  curl -s -H "X-API-Key: ${secret}" "${api}/api/v1/doctors?country=de&limit=3"`,
    `  curl -s -H "X-API-Key: ${secret}" "${api}/api/v1/doctors?country=es&q=dent&whatsapp=true&limit=2"`,
    `  curl -s -H "Authorization: Bearer ${secret}" "${api}/api/v1/doctors?country=it&verified=true&limit=1"`,
    `  curl -s -H "X-API-Key: ${testSecret}" "${api}/api/v1/doctors?country=de&limit=3"`,
    '',
    'Ctrl-C stops the worker, the API, the MCP server and the console.',
    '',
  ];
  // The key goes to the terminal only (it is a demo key of a demo account); never to a log file.
  process.stdout.write(`${lines.join('\n')}\n`);
  await new Promise(() => undefined);
} catch (error) {
  say(`failed: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(1);
}

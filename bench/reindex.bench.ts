// `npm run bench:reindex [-- --places N] [--replay [--unchanged]]`: time to reindex N served places from
// PostgreSQL (the real `npm run reindex` process, with its peak RSS; with --replay, `npm run reindex --
// --replay`, which refolds every place from its event stream) against a raw bulk load of the same
// pre-serialized documents into a fresh index with the same mapping, in the same run. A replay runs after
// a change to the fold, so by default every stored document differs from its refold and every row is
// rewritten; --unchanged keeps them as the refold makes them (a replay run again: no row is rewritten).
// With --replay it also measures `floor`, the work any replay does besides the fold (read every event, write
// every row, the raw bulk), and prints `ratio_floor` = ours / floor; then the fold alone, and the best case:
// the floor's CPU plus the fold's on every core with none idle (`best_ratio` = that / raw).
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import type { estypes } from '@elastic/elasticsearch';
import { sql } from 'kysely';
import type { PlaceProjection } from '@directory/domain';
import { appendEvents, savePlaceStates, streamProjections } from '@directory/event-store';
import { generateEvents } from '@directory/sample-data';
import { createDoctorsIndex, ensureDoctorsIndex } from '@directory/search-index';
import { projectRawEvents, startProcess } from '@directory/testing';
import { createBenchEnvironment, log, runMeasuringScript } from './bench-environment.js';
import { cpuBetween, describeCpu, formatCpu, snapshotCpu, wallSecondsOnAllCores } from './cpu-usage.js';
import { REQUIRED_STEP_ROUNDS } from './required-steps.js';

const { values } = parseArgs({
  options: {
    places: { type: 'string', default: '1000000' },
    replay: { type: 'boolean', default: false },
    unchanged: { type: 'boolean', default: false },
  },
});
const replay = values.replay;
if (values.unchanged && !replay) throw new Error('--unchanged only applies to --replay');
const target = Number(values.places);
if (!Number.isInteger(target) || target <= 0) throw new Error('--places must be a positive integer');

/** The generated events the served places (and, for a replay, their streams) are seeded from. */
const SEED_EVENTS = { count: 60_000, seed: 3 };

const environment = await createBenchEnvironment('reindex');
const { db, client, config } = environment;
const workDir = await mkdtemp(join(tmpdir(), 'bench-reindex-'));
try {
  // ---- data: distinct realistic served places from the generator, cloned in SQL up to the target ----
  const expected = projectRawEvents(generateEvents(SEED_EVENTS), config.SITE_ORIGIN);
  const base: PlaceProjection[] = [...expected.rows.values()].filter((row) => row.document.served);
  if (replay) {
    // A replay refolds from the event store: the served places' streams are stored (and cloned) too.
    const servedIds = new Set(base.map((row) => row.placeId));
    const events = expected.validEvents.filter((event) => servedIds.has(event.placeId));
    for (let start = 0; start < events.length; start += 5_000)
      await appendEvents(db, events.slice(start, start + 5_000));
  }
  for (let start = 0; start < base.length; start += 2_000)
    await savePlaceStates(db, base.slice(start, start + 2_000));
  const copies = Math.ceil(target / base.length) - 1;
  log(`seeding ${target} served places (${base.length} distinct, cloned ${copies}×) …`);
  for (let copy = 1; copy <= copies; copy++) {
    // A clone gets a new id and profile slug in its stored document.
    const suffix = `-c${copy}`;
    await sql`
      insert into places (place_id, document, stream_version, state_version, served)
      select place_id || ${suffix},
             jsonb_set(jsonb_set(jsonb_set(jsonb_set(document::jsonb,
               '{placeId}', to_jsonb(place_id || ${suffix})),
               '{doctor,id}', to_jsonb(place_id || ${suffix})),
               '{profileSlug}', to_jsonb((document::jsonb #>> '{profileSlug}') || ${suffix})),
               '{doctor,profileUrl}', to_jsonb((document::jsonb #>> '{doctor,profileUrl}') || ${suffix}))::json,
             stream_version, state_version, served
      from places where place_id not like '%-c%'
      order by place_id
      limit ${Math.min(base.length, target - copy * base.length)}`.execute(db);
    if (replay)
      await sql`
        insert into events (event_id, place_id, type, occurred_at, schema_version, payload)
        select event_id || ${suffix}, place_id || ${suffix}, type, occurred_at, schema_version, payload
        from events
        where place_id in (select place_id from places where place_id not like '%-c%'
                           order by place_id
                           limit ${Math.min(base.length, target - copy * base.length)})
          and place_id not like '%-c%'
        order by position`.execute(db);
  }
  // As in production, the rows were written long before the reindex (not inside its catch-up margin).
  await sql`update places set projected_version = 0, updated_at = now() - interval '1 hour'`.execute(db);
  // Stored by an older fold: every document differs from what the replay will make of its stream.
  if (replay && !values.unchanged)
    await sql`update places set document = (document::jsonb || '{"foldedBy": "an older fold"}')::json`.execute(
      db,
    );
  // The replay reads the events table by place: fresh statistics, as a long-lived store would have.
  if (replay) await sql`vacuum analyze`.execute(db);
  const served = Number(
    (await sql<{ count: string }>`select count(*) as count from places where served`.execute(db)).rows[0]
      ?.count,
  );
  log(`${served} served places in PostgreSQL`);
  await ensureDoctorsIndex(client, environment.alias);

  // ---- ours: the operator command, as a process of its own ----
  await environment.settle();
  const oursCpu = snapshotCpu([]);
  const oursStarted = performance.now();
  const reindex = startProcess('packages/operator/src/reindex.cli.ts', replay ? ['--replay'] : [], {
    DATABASE_URL: environment.databaseUrl,
    ELASTICSEARCH_INDEX: environment.alias,
    // The heap flags of the `npm run reindex` script (package.json): the cap keeps the process' RSS flat,
    // the 16 MB young generation cuts the replay's garbage collection (docs/benchmarks.md, What was tried).
    NODE_OPTIONS: '--max-old-space-size=192 --max-semi-space-size=16',
  });
  const exitCode = await reindex.exited;
  const oursSeconds = (performance.now() - oursStarted) / 1000;
  const oursCpuAfter = snapshotCpu([]);
  if (exitCode !== 0) throw new Error(`reindex failed:\n${reindex.output()}`);
  const peakRssMb = Number(/peak RSS (\d+) MB/.exec(reindex.output())?.[1]);
  const ours = served / oursSeconds;
  log(
    `ours: ${served} docs in ${oursSeconds.toFixed(1)} s = ${ours.toFixed(0)} docs/s, peak RSS ${peakRssMb} MB`,
  );
  log(`      ${/done in .*/.exec(reindex.output())?.[0] ?? ''}`);
  // The reindex process has exited by now: its own CPU time is the one it printed.
  const oursUsage = oursCpu && oursCpuAfter ? cpuBetween(oursCpu, oursCpuAfter) : undefined;
  if (oursUsage) log(`      ${formatCpu(oursUsage, oursSeconds)}`);

  // ---- raw: the same documents, serialized beforehand (untimed), bulk-loaded into a fresh index ----
  const bulkFile = join(workDir, 'bulk.ndjson');
  const out = createWriteStream(bulkFile);
  for await (const page of streamProjections(db, { pageSize: 2_000 })) {
    let chunk = '';
    for (const projection of page) {
      chunk += `{"index":{"_id":${JSON.stringify(projection.placeId)}}}\n${projection.documentJson}\n`;
    }
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  /** Bulk-loads the documents file into a fresh index: 2,000 documents (4,000 lines) a request, one at a time. */
  const bulkLoad = async (index: string) => {
    await createDoctorsIndex(client, index, { refresh_interval: '-1', number_of_replicas: 0 });
    let lines: string[] = [];
    const send = async () => {
      const response = await client.transport.request<estypes.BulkResponse>({
        method: 'POST',
        path: `/${index}/_bulk`,
        bulkBody: `${lines.join('\n')}\n`,
      });
      if (response.errors) throw new Error('raw bulk had item errors');
      lines = [];
    };
    for await (const line of createInterface({ input: createReadStream(bulkFile) })) {
      lines.push(line);
      if (lines.length === 4_000) await send();
    }
    if (lines.length) await send();
    await client.indices.refresh({ index });
  };
  await environment.settle();
  const rawCpu = snapshotCpu([]);
  const rawStarted = performance.now();
  await bulkLoad(`${environment.alias}__raw`);
  const rawSeconds = (performance.now() - rawStarted) / 1000;
  const rawCpuAfter = snapshotCpu([]);
  const raw = served / rawSeconds;
  log(`raw:  ${served} docs in ${rawSeconds.toFixed(1)} s = ${raw.toFixed(0)} docs/s`);
  if (rawCpu && rawCpuAfter) log(`      ${describeCpu(rawCpu, rawCpuAfter, rawSeconds)}`);

  // ---- floor (--replay): what any replay must do besides the fold, one step after the other: read every
  // stored event once (in store order, the cheapest read there is), write every document once over the
  // existing rows of a copy of `places` (same columns and indexes), then the raw bulk ----
  const floor = replay ? await measureReplayFloor(bulkFile, bulkLoad) : undefined;
  // The fastest any replay could go here: the floor's CPU plus the fold's, on every core with none idle.
  let best: { foldSeconds: number; rate: number } | undefined;
  if (floor?.busySeconds !== undefined) {
    const foldSeconds = await measureReplayFoldApart(served);
    const seconds = wallSecondsOnAllCores(floor.busySeconds + foldSeconds);
    best = { foldSeconds, rate: served / seconds };
    log(
      `best case: the floor's ${floor.busySeconds.toFixed(1)} CPU s plus the fold's, on every core with none idle: ` +
        `${seconds.toFixed(1)} s = ${best.rate.toFixed(0)} docs/s, ratio ${(best.rate / raw).toFixed(2)}` +
        (oursUsage ? `; ours spent ${oursUsage.busySeconds.toFixed(1)} CPU s` : ''),
    );
  }

  console.log(
    JSON.stringify({
      bench: replay ? 'reindex --replay' : 'reindex',
      ours: Math.round(ours),
      raw: Math.round(raw),
      unit: 'docs/s',
      ratio: Number((ours / raw).toFixed(3)),
      ...(floor === undefined
        ? {}
        : { floor: Math.round(floor.rate), ratio_floor: Number((ours / floor.rate).toFixed(3)) }),
      ...(best === undefined
        ? {}
        : {
            fold_cpu_s: Number(best.foldSeconds.toFixed(1)),
            best_ratio: Number((best.rate / raw).toFixed(3)),
          }),
      peak_rss_mb: peakRssMb,
    }),
  );
} finally {
  await rm(workDir, { recursive: true, force: true });
  await environment.cleanup();
}

/**
 * The replay's floor in docs/s (see above), and the machine's CPU seconds while it ran where /proc tells;
 * prints its phases and CPU line.
 */
async function measureReplayFloor(
  bulkFile: string,
  bulkLoad: (index: string) => Promise<void>,
): Promise<{ rate: number; busySeconds?: number }> {
  await sql`create table places_floor (like places including all)`.execute(db);
  await sql`insert into places_floor select * from places`.execute(db);
  await sql`vacuum analyze places_floor`.execute(db);
  await environment.settle();
  const cpu = snapshotCpu([]);
  const started = performance.now();
  let events = 0;
  for (let after = 0; ;) {
    const page = await sql<{ position: number }>`
      select position, event_id, place_id, type, occurred_at, schema_version, payload
      from events where position > ${after} order by position limit 10000`.execute(db);
    if (page.rows.length === 0) break;
    events += page.rows.length;
    after = page.rows[page.rows.length - 1]?.position ?? after;
  }
  const readSeconds = (performance.now() - started) / 1000;
  let documents = 0;
  let ids: string[] = [];
  let texts: string[] = [];
  const write = async () => {
    await sql`
      insert into places_floor (place_id, document)
      select * from unnest(${ids}::text[], string_to_array(${texts.join('\n')}, E'\n')::json[])
      on conflict (place_id) do update set document = excluded.document`.execute(db);
    documents += ids.length;
    ids = [];
    texts = [];
  };
  let id = '';
  for await (const line of createInterface({ input: createReadStream(bulkFile) })) {
    if (id === '') {
      id = (JSON.parse(line) as { index: { _id: string } }).index._id;
      continue;
    }
    ids.push(id);
    texts.push(line);
    id = '';
    if (ids.length === 1_000) await write();
  }
  if (ids.length) await write();
  const writeSeconds = (performance.now() - started) / 1000 - readSeconds;
  await bulkLoad(`${environment.alias}__floor`);
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = snapshotCpu([]);
  const rate = documents / seconds;
  log(
    `floor: ${documents} docs in ${seconds.toFixed(1)} s = ${rate.toFixed(0)} docs/s (read ${events} events ` +
      `${readSeconds.toFixed(1)} s, write the rows ${writeSeconds.toFixed(1)} s, then bulk ${(seconds - readSeconds - writeSeconds).toFixed(1)} s)`,
  );
  const usage = cpu && cpuAfter ? cpuBetween(cpu, cpuAfter) : undefined;
  if (usage) log(`      ${formatCpu(usage, seconds)}`);
  return { rate, busySeconds: usage?.busySeconds };
}

/**
 * The fold's CPU alone, refold and serialize: timed in a process of its own on the distinct places the
 * store was seeded from and scaled to `served` (the clones fold the same). Prints it.
 */
async function measureReplayFoldApart(served: number): Promise<number> {
  const measured = await runMeasuringScript<{ places: number; cpuSeconds: number }>(
    'bench/replay-fold.cli.ts',
    ['--count', String(SEED_EVENTS.count), '--seed', String(SEED_EVENTS.seed)],
  );
  const foldSeconds = (measured.cpuSeconds / measured.places) * served;
  log(
    `fold alone: ${foldSeconds.toFixed(1)} CPU s (refold and serialize: ${measured.cpuSeconds.toFixed(2)} s for ` +
      `${measured.places} places, median of ${REQUIRED_STEP_ROUNDS} rounds, scaled to ${served})`,
  );
  return foldSeconds;
}

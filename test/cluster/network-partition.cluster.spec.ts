import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPartitionedReplication, type PartitionedReplication } from '@directory/testing';

const CUT_MS = 20_000;
const CATCH_UP_MS = 30_000;
const WRITE_INTERVAL_MS = 25;

type WriteLog = { ok: number[]; failed: string[] };

async function query<T extends pg.QueryResultRow>(
  config: pg.ClientConfig,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: 2_000, query_timeout: 5_000 });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A private primary in the root network namespace and its streaming standby inside a network namespace
 * of the test's own, joined by a veth pair. The pair is taken down for 20 s while the primary keeps
 * taking writes: the primary must not notice beyond losing its walsender, the standby must report that
 * it lost its upstream, and once the link is back the standby must replay up to the primary's position
 * and hold every row.
 */
describe('a network partition between a PostgreSQL primary and its namespaced standby', () => {
  let replication: PartitionedReplication;
  let primaryPool: pg.Pool;
  let writing = false;
  let writer: Promise<void> | undefined;
  const writes: WriteLog = { ok: [], failed: [] };

  const startWriting = () => {
    writing = true;
    let next = 1;
    writer = (async () => {
      while (writing) {
        const id = next++;
        try {
          await primaryPool.query('insert into partition_writes (id) values ($1)', [id]);
          writes.ok.push(id);
        } catch (error) {
          writes.failed.push(`${id}: ${(error as Error).message}`);
        }
        await sleep(WRITE_INTERVAL_MS);
      }
    })();
  };
  const stopWriting = async () => {
    writing = false;
    await writer;
  };

  beforeAll(async () => {
    replication = await startPartitionedReplication('part');
    primaryPool = new pg.Pool({
      connectionString: replication.primaryUrl,
      // The private clusters commit asynchronously; these writes are flushed at commit, so that
      // pg_current_wal_lsn() taken after them covers every acknowledged row.
      options: '-c synchronous_commit=on',
      max: 2,
      connectionTimeoutMillis: 2_000,
      query_timeout: 5_000,
    });
    await primaryPool.query(
      'create table partition_writes (id int primary key, at timestamptz default now())',
    );
  });

  afterAll(async () => {
    await stopWriting();
    await primaryPool?.end();
    await replication?.destroy();
  });

  it('keeps the primary writing, shows the standby cut off, and catches the standby up after healing', async () => {
    const standby = replication.standbyConfig;
    const primary = { connectionString: replication.primaryUrl };
    const standbyRows = async () =>
      (await query<{ n: number }>(standby, 'select count(*)::int as n from partition_writes'))[0]!.n;
    const receiverStatus = async () =>
      (
        await query<{ status: string; sender_host: string }>(
          standby,
          'select status, sender_host from pg_stat_wal_receiver',
        )
      )[0];

    // Streaming over the veth pair before the cut.
    expect(await receiverStatus()).toMatchObject({
      status: 'streaming',
      sender_host: replication.network.hostAddress,
    });
    startWriting();
    const warmUpDeadline = Date.now() + 15_000;
    while ((await standbyRows().catch(() => 0)) < 20) {
      if (Date.now() > warmUpDeadline) throw new Error('the standby received no writes before the cut');
      await sleep(200);
    }

    replication.network.cut();
    const cutAt = Date.now();
    const writesBeforeCut = writes.ok.length;
    let standbyLostUpstream = false;
    let primaryLostWalsender = false;
    try {
      while (Date.now() - cutAt < CUT_MS) {
        const status = await receiverStatus();
        if (status?.status !== 'streaming') standbyLostUpstream = true;
        const senders = await query<{ n: number }>(
          primary,
          'select count(*)::int as n from pg_stat_replication where application_name = $1',
          [replication.standbyName],
        );
        if (senders[0]!.n === 0) primaryLostWalsender = true;
        await sleep(500);
      }
      const stalledStandbyRows = await standbyRows();
      const primaryRowsAtHeal = writes.ok.length;
      expect(stalledStandbyRows).toBeLessThan(primaryRowsAtHeal);
    } finally {
      replication.network.heal();
    }
    const writesDuringCut = writes.ok.length - writesBeforeCut;
    await sleep(1_000);
    await stopWriting();

    expect(writes.failed).toEqual([]);
    expect(writesDuringCut).toBeGreaterThan(100);
    expect(standbyLostUpstream).toBe(true);
    expect(primaryLostWalsender).toBe(true);

    const [{ lsn: target }] = (await query<{ lsn: string }>(
      primary,
      'select pg_current_wal_lsn()::text as lsn',
    )) as [{ lsn: string }];
    const healedAt = Date.now();
    let caughtUp = false;
    while (!caughtUp && Date.now() - healedAt < CATCH_UP_MS) {
      const replayed = await query<{ caught: boolean }>(
        standby,
        'select pg_last_wal_replay_lsn() >= $1::pg_lsn as caught',
        [target],
      );
      caughtUp = replayed[0]?.caught === true;
      if (!caughtUp) await sleep(250);
    }
    expect(caughtUp, `the standby did not replay up to ${target} within ${CATCH_UP_MS} ms`).toBe(true);

    const onStandby = await query<{ n: number; max: number }>(
      standby,
      'select count(*)::int as n, coalesce(max(id), 0)::int as max from partition_writes',
    );
    expect(onStandby[0]).toEqual({ n: writes.ok.length, max: Math.max(...writes.ok) });
    expect((await receiverStatus())?.status).toBe('streaming');
  });
});

import { describe, expect, it } from 'vitest';
import { formatStatus, needsAttention, type StatusSnapshot } from '../src/attention.js';
import { stalenessSeconds } from '@directory/ingest';

const healthy: StatusSnapshot = {
  dependencies: [
    { name: 'postgresql', ready: true, durationMs: 2 },
    { name: 'redis', ready: true, durationMs: 1 },
    { name: 'elasticsearch', ready: true, durationMs: 4 },
  ],
  queue: { waiting: 0, active: 0, delayed: 0, prioritized: 0, paused: 0, failed: 0, completed: 12 },
  projection: { lagPlaces: 0, setAsidePlaces: 0, oldestChangeAgeSeconds: 0, stalenessSeconds: 0 },
  deadLettersPending: 0,
  served: { postgresql: 40, index: 40 },
  newestEvent: { ageSeconds: 30 },
};

describe('what needs attention', () => {
  it('nothing on a healthy, idle stack', () => {
    expect(needsAttention(healthy)).toEqual([]);
    expect(formatStatus(healthy, [])).toContain('OK: nothing needs attention');
  });

  it('names every dependency that is not ready, with its reason', () => {
    const lines = needsAttention({
      ...healthy,
      dependencies: [
        { name: 'postgresql', ready: true, durationMs: 2 },
        { name: 'elasticsearch', ready: false, reason: 'connect ECONNREFUSED 127.0.0.1:9200', durationMs: 1 },
      ],
      served: null,
    });
    expect(lines).toEqual(['elasticsearch is not ready: connect ECONNREFUSED 127.0.0.1:9200']);
  });

  it('a store that went back in time behind the index, with the repair it names', () => {
    const reason = 'the store went back in time: …; run npm run reindex -- --replay';
    expect(needsAttention({ ...healthy, storeBehindIndex: reason })).toEqual([reason]);
    expect(needsAttention({ ...healthy, storeBehindIndex: null })).toEqual([]);
  });

  it('failed jobs, pending dead letters', () => {
    const lines = needsAttention({
      ...healthy,
      queue: { ...healthy.queue!, failed: 2 },
      deadLettersPending: 3,
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^2 ingest job\(s\) failed/);
    expect(lines[1]).toMatch(/^3 dead letter\(s\) pending/);
  });

  it('a stalled projector and an old lag, each against its threshold', () => {
    const within = { lagPlaces: 5, setAsidePlaces: 0, oldestChangeAgeSeconds: 300, stalenessSeconds: 120 };
    expect(needsAttention({ ...healthy, projection: within, served: { postgresql: 40, index: 36 } })).toEqual(
      [],
    );
    const beyond = { lagPlaces: 5, setAsidePlaces: 0, oldestChangeAgeSeconds: 301, stalenessSeconds: 121 };
    const lines = needsAttention({ ...healthy, projection: beyond, served: { postgresql: 40, index: 36 } });
    expect(lines.map((line) => line.split(':')[0])).toEqual(['projection stalled', 'projection lag']);
  });

  it('work waiting that no worker ever reported on', () => {
    const projection = { lagPlaces: 1, setAsidePlaces: 0, oldestChangeAgeSeconds: 1, stalenessSeconds: null };
    expect(needsAttention({ ...healthy, projection })).toEqual([
      'work is waiting but no worker has ever reported progress: is a worker running?',
    ]);
  });

  it('places set aside by the index, whatever the lag; their last good documents explain a served gap', () => {
    const projection = { lagPlaces: 0, setAsidePlaces: 3, oldestChangeAgeSeconds: 0, stalenessSeconds: 0 };
    const setAside = ['3 place(s) refused by the index and set aside: npm run dead-letters -- projections'];
    expect(needsAttention({ ...healthy, projection })).toEqual(setAside);
    expect(needsAttention({ ...healthy, projection, served: { postgresql: 40, index: 43 } })).toEqual(
      setAside,
    );
    expect(needsAttention({ ...healthy, projection, served: { postgresql: 40, index: 44 } })).toHaveLength(2);
  });

  it('a served-count gap only when it exceeds what the lag explains', () => {
    const lagging = { lagPlaces: 2, setAsidePlaces: 0, oldestChangeAgeSeconds: 1, stalenessSeconds: 1 };
    expect(
      needsAttention({ ...healthy, projection: lagging, served: { postgresql: 40, index: 38 } }),
    ).toEqual([]);
    expect(
      needsAttention({ ...healthy, projection: lagging, served: { postgresql: 40, index: 37 } }),
    ).toEqual(['index and store disagree: 40 served in PostgreSQL, 37 in the index (npm run reindex)']);
  });
});

describe('staleness', () => {
  const now = new Date('2026-01-01T00:10:00Z');
  it('is 0 while nothing waits, whenever progress was last made', () => {
    expect(
      stalenessSeconds({ workWaiting: false, lastProgressAt: new Date('2025-01-01T00:00:00Z'), now }),
    ).toBe(0);
  });
  it('counts from the last progress while work waits', () => {
    expect(
      stalenessSeconds({ workWaiting: true, lastProgressAt: new Date('2026-01-01T00:09:30Z'), now }),
    ).toBe(30);
  });
  it('is unknown when work waits and nobody ever made progress', () => {
    expect(stalenessSeconds({ workWaiting: true, lastProgressAt: null, now })).toBeNull();
  });
});

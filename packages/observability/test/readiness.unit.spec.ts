import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { sameSecret } from '../src/operator-listener.js';
import { notReadyProblem, verboseReport } from '../src/probes.js';
import { startProcessOperations } from '../src/process-operations.js';
import { checkReadiness, markStopping } from '../src/readiness.js';
import { redisDurabilityWarnings, warnAboutRedisDurability } from '../src/redis-settings.js';

describe('readiness', () => {
  it('is ready only when every check answers, and names each failing one', async () => {
    const report = await checkReadiness(
      [
        { name: 'postgresql', check: () => Promise.resolve('ok') },
        { name: 'elasticsearch', check: () => Promise.reject(new Error('connect ECONNREFUSED\nstack')) },
        { name: 'redis', check: () => new Promise(() => undefined) },
      ],
      50,
    );
    expect(report.ready).toBe(false);
    expect(report.dependencies.map(({ name, ready, reason }) => ({ name, ready, reason }))).toEqual([
      { name: 'postgresql', ready: true, reason: undefined },
      { name: 'elasticsearch', ready: false, reason: 'connect ECONNREFUSED' },
      { name: 'redis', ready: false, reason: 'no answer within 50 ms' },
    ]);
    expect(notReadyProblem(report).detail).toBe(
      'not ready: elasticsearch (connect ECONNREFUSED), redis (no answer within 50 ms)',
    );
    expect(verboseReport(report)).toBe(
      '[+]postgresql ok\n[-]elasticsearch failed: connect ECONNREFUSED\n[-]redis failed: no answer within 50 ms\nreadyz check failed\n',
    );
  });
});

describe('readiness of a stopping process', () => {
  // markStopping is process-wide and has no way back: this is the only spec of the file that uses it.
  it('fails at once from markStopping on, as a failing "shutdown" dependency, without asking the others', async () => {
    let checked = 0;
    const operations = await startProcessOperations({
      service: 'test',
      host: '127.0.0.1',
      port: 0,
      checks: [{ name: 'postgresql', check: () => Promise.resolve((checked += 1)) }],
      readinessTimeoutMs: 50,
    });
    expect((await operations.readiness()).ready).toBe(true);
    expect(checked).toBe(1);

    markStopping();
    const report = await operations.readiness();
    expect(checked).toBe(1);
    expect(report.ready).toBe(false);
    expect(notReadyProblem(report)).toEqual({
      type: '/problems/not-ready',
      title: 'Not ready',
      status: 503,
      detail: 'not ready: shutdown (draining)',
      dependencies: [{ name: 'shutdown', ready: false, reason: 'draining' }],
    });
    expect(verboseReport(report)).toBe('[-]shutdown failed: draining\nreadyz check failed\n');
    await operations.close();
  });
});

describe('Redis durability warnings', () => {
  it('none with AOF or snapshots and noeviction', () => {
    expect(redisDurabilityWarnings({ appendonly: 'yes', save: '', maxmemoryPolicy: 'noeviction' })).toEqual(
      [],
    );
    expect(
      redisDurabilityWarnings({ appendonly: 'no', save: '3600 1', maxmemoryPolicy: 'noeviction' }),
    ).toEqual([]);
  });
  it('managed Redis refusing CONFIG is reported as unknown, not as a fault', async () => {
    const refusing = {
      config: () => Promise.reject(new Error("ERR unknown command 'CONFIG'")),
    } as unknown as Redis;
    const logged: Array<{ level: string; message: string }> = [];
    await warnAboutRedisDurability(refusing, {
      warn: (_fields, message) => logged.push({ level: 'warn', message }),
      info: (_fields, message) => logged.push({ level: 'info', message }),
    });
    expect(logged).toEqual([
      { level: 'info', message: expect.stringMatching(/could not read Redis settings/) as string },
    ]);
  });

  it('one for no persistence, one for an evicting policy', () => {
    const warnings = redisDurabilityWarnings({ appendonly: 'no', save: '', maxmemoryPolicy: 'allkeys-lru' });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/no persistence/);
    expect(warnings[1]).toMatch(/allkeys-lru/);
  });
});

describe('operator token comparison', () => {
  it('accepts only the exact token', () => {
    const token = 'x'.repeat(40);
    expect(sameSecret(token, token)).toBe(true);
    expect(sameSecret(`${token}y`, token)).toBe(false);
    expect(sameSecret('', token)).toBe(false);
  });
});

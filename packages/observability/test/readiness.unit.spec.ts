import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { sameSecret } from '../src/operator-listener.js';
import { notReadyProblem, verboseReport } from '../src/probes.js';
import { checkReadiness } from '../src/readiness.js';
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

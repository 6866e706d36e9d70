import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReadinessReport } from '@directory/observability';
import { createJobAdmission, gateOnReadiness } from '../src/readiness-gate.js';

const ready: ReadinessReport = {
  ready: true,
  dependencies: [{ name: 'elasticsearch', ready: true, durationMs: 1 }],
};
const down: ReadinessReport = {
  ready: false,
  dependencies: [{ name: 'elasticsearch', ready: false, reason: 'connect ECONNREFUSED', durationMs: 1 }],
};

describe('a worker gated on readiness', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pauses once while a dependency is down, and resumes once when it is back', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const worker = {
      pause: (doNotWaitActive?: boolean) => {
        calls.push(`pause(${String(doNotWaitActive)})`);
        return Promise.resolve();
      },
      resume: () => {
        calls.push('resume');
      },
    };
    let report = ready;
    const admission = createJobAdmission();
    const changes: boolean[] = [];
    const gate = gateOnReadiness(worker, () => Promise.resolve(report), admission, {
      logger: pino({ level: 'silent' }),
      onChange: (open) => changes.push(open),
    });

    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual([]);
    report = down;
    await vi.advanceTimersByTimeAsync(3_000);
    expect(calls).toEqual(['pause(true)']);
    expect(admission.isOpen()).toBe(false);
    report = ready;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toEqual(['pause(true)', 'resume']);
    expect(admission.isOpen()).toBe(true);
    expect(changes).toEqual([true, false, true]);
    await gate.close();
  });
});

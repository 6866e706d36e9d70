import { describe, expect, it } from 'vitest';
import {
  CLUSTER_STATEMENT_TIMEOUT_MS,
  formatClusterProgress,
  formatDiskNeed,
  rewriteTimeouts,
} from '../src/events-order.service.js';

describe('cluster-events progress line', () => {
  it('gives the phase, the share of the table read and the events written', () => {
    expect(
      formatClusterProgress({
        phase: 'seq scanning heap',
        heapBlocksScanned: 1_234,
        heapBlocksTotal: 4_000,
        tuplesWritten: 0,
      }),
    ).toBe('seq scanning heap: 30 % of 4000 blocks read, 0 events written');
  });

  it('leaves out the share in phases that read no blocks', () => {
    expect(
      formatClusterProgress({
        phase: 'rebuilding index',
        heapBlocksScanned: 0,
        heapBlocksTotal: 0,
        tuplesWritten: 1_939_909,
      }),
    ).toBe('rebuilding index: 1939909 events written');
  });
});

describe('cluster-events disk and time', () => {
  const GB = 1024 ** 3;
  const need = { tableBytes: 26 * GB, indexBytes: 2.5 * GB };

  it('counts the copy and, for a sorted rewrite, the sort as large as the table again', () => {
    expect(formatDiskNeed(need, false)).toBe(
      'needs about 54.5 GB of free disk (the new copy of the table and its indexes, ' +
        "and the sort's temporary files; --through-index needs 28.5 GB)",
    );
    expect(formatDiskNeed(need, true)).toBe(
      'needs about 28.5 GB of free disk (the new copy of the table and its indexes)',
    );
  });

  it("lets the rewrite run past a job's statement bound and keeps the job's other bounds", () => {
    const job = { connectTimeoutMs: 1_000, statementTimeoutMs: 60_000, idleInTransactionTimeoutMs: 10_000 };
    expect(rewriteTimeouts(job)).toEqual({ ...job, statementTimeoutMs: CLUSTER_STATEMENT_TIMEOUT_MS });
    const longer = { ...job, statementTimeoutMs: 2 * CLUSTER_STATEMENT_TIMEOUT_MS };
    expect(rewriteTimeouts(longer)).toEqual(longer);
  });
});

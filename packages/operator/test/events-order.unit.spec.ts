import { describe, expect, it } from 'vitest';
import { formatClusterProgress } from '../src/events-order.service.js';

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

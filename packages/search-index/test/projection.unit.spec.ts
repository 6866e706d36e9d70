import { describe, expect, it } from 'vitest';
import { classifyBulkItemFailure, currentVersionOf, sortBulkItems } from '../src/projection.js';

describe('classifyBulkItemFailure', () => {
  it.each([
    [409, 'version_conflict_engine_exception', 'stale'],
    [400, 'document_parsing_exception', 'refused'],
    [400, 'mapper_parsing_exception', 'refused'],
    [400, 'illegal_argument_exception', 'refused'],
    [413, undefined, 'refused'],
    [429, 'es_rejected_execution_exception', 'retry'],
    [500, 'internal_server_error', 'retry'],
    [503, 'unavailable_shards_exception', 'retry'],
    [404, 'index_not_found_exception', 'retry'],
    [400, 'index_not_found_exception', 'retry'],
    [403, 'cluster_block_exception', 'retry'],
    [400, 'index_closed_exception', 'retry'],
  ] as const)('%i %s → %s', (status, type, outcome) => {
    expect(classifyBulkItemFailure(status, type)).toBe(outcome);
  });

  it('retries an alias with no write index (the index is wrong, not the document)', () => {
    const reason =
      'no write index is defined for alias [doctors]. The write index may be explicitly disabled';
    expect(classifyBulkItemFailure(400, 'illegal_argument_exception', reason)).toBe('retry');
    expect(classifyBulkItemFailure(400, 'illegal_argument_exception', 'field [x] too long')).toBe('refused');
  });
});

describe('sortBulkItems', () => {
  const sent = ['a', 'b', 'c', 'd', 'e'].map((placeId, position) => ({
    placeId,
    version: position + 1,
    documentJson: '{}',
  }));
  const items = [
    { index: { status: 201 } },
    { index: { status: 409, error: { type: 'version_conflict_engine_exception', reason: 'stale' } } },
    { index: { status: 400, error: { type: 'document_parsing_exception', reason: 'bad field' } } },
    { index: { status: 429, error: { type: 'es_rejected_execution_exception', reason: 'busy' } } },
    { index: { status: 200 } },
  ];

  it('counts writes and stale writes, returns refused documents and sends throttled ones again', () => {
    expect(sortBulkItems(items, sent, { mayRetry: true })).toEqual({
      written: 2,
      stale: 1,
      newerInIndex: [],
      refused: [
        {
          placeId: 'c',
          version: 3,
          status: 400,
          errorType: 'document_parsing_exception',
          reason: 'bad field',
        },
      ],
      retry: [sent[3]],
      failures: [],
    });
  });

  it('fails with a throttled item on the last attempt, and at once with any other infrastructure error', () => {
    expect(sortBulkItems(items, sent, { mayRetry: false })).toMatchObject({
      retry: [],
      failures: [{ placeId: 'd', status: 429, reason: 'es_rejected_execution_exception' }],
    });
    const unavailable = [{ index: { status: 503, error: { type: 'unavailable_shards_exception' } } }];
    expect(sortBulkItems(unavailable, sent, { mayRetry: true })).toMatchObject({
      retry: [],
      failures: [{ placeId: 'a', status: 503, reason: 'unavailable_shards_exception' }],
    });
  });

  it('lists the stale writes where the index holds a higher version than the one sent', () => {
    const conflict = (current: number, provided: number) => ({
      index: {
        status: 409,
        error: {
          type: 'version_conflict_engine_exception',
          reason: `[x]: version conflict, current version [${current}] is higher or equal to the one provided [${provided}]`,
        },
      },
    });
    // a: sent 1, the index has 1 (the same write twice); b: sent 2, the index has 7.
    expect(sortBulkItems([conflict(1, 1), conflict(7, 2)], sent, { mayRetry: true })).toMatchObject({
      stale: 2,
      newerInIndex: [{ placeId: 'b', version: 2, indexVersion: 7 }],
    });
  });
});

describe('currentVersionOf', () => {
  it("reads the index's version from a 409's reason, and nothing from another reason", () => {
    expect(
      currentVersionOf(
        '[pl_1]: version conflict, current version [12] is higher or equal to the one provided [9]',
      ),
    ).toBe(12);
    expect(currentVersionOf('stale')).toBeUndefined();
  });
});

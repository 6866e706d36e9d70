import { describe, expect, it } from 'vitest';
import { classifyBulkItemFailure } from '../src/projection.js';

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

import { describe, expect, it } from 'vitest';
import {
  buildDatasetCoverageRequest,
  coverageWindowStart,
  parseDatasetsParams,
  toDatasetsPage,
} from '../src/index.js';

const AS_OF = new Date('2026-11-29T10:15:00.000Z');

describe('dataset coverage (GET /api/v1/datasets)', () => {
  it('asks one aggregation over served records: per dataset, the newest observation and those in the window', () => {
    const body = buildDatasetCoverageRequest({}, AS_OF);
    expect(body.query.bool.filter).toEqual([{ term: { served: true } }]);
    expect(body.size).toBe(0);
    expect(body.aggs.datasets.aggs.inWindow.filter.range.observedAt.gte).toBe('2026-08-31T10:15:00.000Z');
    expect(body.aggs.datasets.aggs.lastObserved).toEqual({ max: { field: 'observedAt' } });
    expect(buildDatasetCoverageRequest({ country: 'es' }, AS_OF).query.bool.filter).toEqual([
      { term: { served: true } },
      { term: { country: 'es' } },
    ]);
  });

  it('the window is 90 days of 24 hours ending at asOf', () => {
    expect(AS_OF.getTime() - coverageWindowStart(AS_OF).getTime()).toBe(90 * 86_400_000);
  });

  it('turns buckets into datasets: coverage to four decimals, a missing observation null, unknown keys dropped', () => {
    const page = toDatasetsPage(
      {
        datasets: {
          buckets: [
            {
              key: 'de',
              doc_count: 3,
              lastObserved: { value: Date.parse('2026-11-28T00:00:00Z') },
              inWindow: { doc_count: 2 },
            },
            { key: 'es', doc_count: 7, lastObserved: { value: null }, inWindow: { doc_count: 0 } },
            { key: 'zz', doc_count: 5, inWindow: { doc_count: 5 } },
          ],
        },
      },
      AS_OF,
    );
    expect(page).toEqual({
      asOf: '2026-11-29T10:15:00.000Z',
      windowDays: 90,
      windowStart: '2026-08-31T10:15:00.000Z',
      datasets: [
        {
          country: 'de',
          records: 3,
          lastObservedAt: '2026-11-28T00:00:00.000Z',
          observedInWindow: 2,
          coverage: 0.6667,
        },
        { country: 'es', records: 7, lastObservedAt: null, observedInWindow: 0, coverage: 0 },
      ],
    });
  });

  it('no index yet lists no dataset', () => {
    expect(toDatasetsPage(undefined, AS_OF).datasets).toEqual([]);
  });

  it('takes an optional country, case-insensitive, and refuses anything else', () => {
    expect(parseDatasetsParams({})).toEqual({ ok: true, value: {} });
    expect(parseDatasetsParams({ country: 'DE' })).toEqual({ ok: true, value: { country: 'de' } });
    const refused = parseDatasetsParams({ country: 'xx', limit: '5' });
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.error.map((error) => error.parameter).sort()).toEqual(['country', 'limit']);
  });
});

import { describe, expect, it } from 'vitest';
import {
  decodeChangesCursor,
  feedAfterSnapshot,
  type SnapshotHorizon,
} from '../src/changes/changes-cursor.js';
import {
  EXPORT_RESUME_OTHER_MODE,
  decodeExportResumeToken,
  exportChangesCursor,
  exportResumeToken,
  exportTrailerLine,
  exportUnitDue,
  exportUnits,
  parseExportParams,
} from '../src/changes/export-params.js';

const SECRET = 'unit-test-cursor-secret-0123456789abcdef';
const HORIZON: SnapshotHorizon = { upTo: '812', running: ['790', '801'] };

const parameters = (result: ReturnType<typeof parseExportParams>) =>
  result.ok ? [] : result.error.map((error) => error.parameter);

describe('export parameters', () => {
  it('accepts a country in any case, alone or with resume and after', () => {
    expect(parseExportParams({ country: 'DE' }, {})).toEqual({ ok: true, value: { country: 'de' } });
    expect(parseExportParams({ country: 'de' }, { resume: 'token', after: 'ChIJ_a-1' })).toEqual({
      ok: true,
      value: { country: 'de', resume: 'token', after: 'ChIJ_a-1' },
    });
    expect(parseExportParams({ country: 'fr' }, { resume: 'token' })).toEqual({
      ok: true,
      value: { country: 'fr', resume: 'token' },
    });
  });

  it('names every bad parameter at once', () => {
    expect(parameters(parseExportParams({ country: 'xx' }, { after: 'a b', limit: '5' }))).toEqual([
      'country',
      'limit',
      'after',
    ]);
    expect(parameters(parseExportParams({ country: 'de' }, { resume: '' }))).toEqual(['resume']);
    expect(parameters(parseExportParams({ country: 'de' }, { resume: ['a', 'b'] }))).toEqual(['resume']);
    expect(parameters(parseExportParams({ country: 'de' }, { resume: 't', after: 'x'.repeat(129) }))).toEqual(
      ['after'],
    );
  });

  it('refuses after without resume (it means nothing without the snapshot it belongs to)', () => {
    const result = parseExportParams({ country: 'de' }, { after: 'abc' });
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.error[0]?.reason).toMatch(/resume/);
  });
});

describe('export cursors', () => {
  it('the trailer cursor is the feed after the snapshot, the resume token the snapshot itself', () => {
    const changes = decodeChangesCursor(exportChangesCursor(HORIZON, 'de', SECRET), 'de', SECRET);
    expect(changes).toEqual({ ok: true, value: feedAfterSnapshot(HORIZON, { timed: true }) });
    // A live token keeps the form live tokens always had: a snapshot cursor of the feed.
    const resume = decodeChangesCursor(exportResumeToken(HORIZON, 'de', 'live', SECRET), 'de', SECRET);
    expect(resume).toEqual({ ok: true, value: { kind: 'snapshot', horizon: HORIZON, after: '' } });
    expect(decodeChangesCursor(exportResumeToken(HORIZON, 'de', 'live', SECRET), 'fr', SECRET).ok).toBe(
      false,
    );
  });

  it('a resume token is bound to its key mode: each mode refuses the other, saying which it came from', () => {
    for (const mode of ['live', 'test'] as const) {
      const other = mode === 'live' ? 'test' : 'live';
      const token = exportResumeToken(HORIZON, 'de', mode, SECRET);
      expect(decodeExportResumeToken(token, 'de', mode, SECRET)).toEqual({
        ok: true,
        value: { horizon: HORIZON, after: '' },
      });
      expect(decodeExportResumeToken(token, 'de', other, SECRET)).toEqual({
        ok: false,
        error: EXPORT_RESUME_OTHER_MODE[mode],
      });
      // Another country's check fails as before, whichever mode tries it.
      expect(decodeExportResumeToken(token, 'fr', mode, SECRET).ok).toBe(false);
      expect(decodeExportResumeToken(token, 'fr', other, SECRET).ok).toBe(false);
    }
    // A sandbox token is a test key's changes cursor, as the feed's own are.
    expect(
      decodeChangesCursor(exportResumeToken(HORIZON, 'de', 'test', SECRET), 'de', SECRET, 'test').ok,
    ).toBe(true);
    // The feed cursor is not a resume token in either mode; an altered token names no mode.
    const feed = exportChangesCursor(HORIZON, 'de', SECRET);
    expect(decodeExportResumeToken(feed, 'de', 'live', SECRET)).toMatchObject({ ok: false });
    const altered = `${exportResumeToken(HORIZON, 'de', 'test', SECRET).slice(0, -2)}AA`;
    const refused = decodeExportResumeToken(altered, 'de', 'live', SECRET);
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.error).not.toMatch(/test key/);
  });
});

describe('export charging', () => {
  it('charges one unit before each further started thousand records', () => {
    const due = Array.from({ length: 3001 }, (_, sent) => sent).filter(exportUnitDue);
    expect(due).toEqual([1000, 2000, 3000]);
    // The request's own unit plus those charged on the way always add up to the records' thousands.
    for (const records of [0, 1, 999, 1000, 1001, 2500, 3000, 3001]) {
      const charged = Array.from({ length: records }, (_, sent) => sent).filter(exportUnitDue).length;
      expect(1 + charged).toBe(exportUnits(records));
    }
  });
});

describe('export trailer', () => {
  it('is one JSON line, with a reason only when incomplete', () => {
    const complete = exportTrailerLine({ country: 'de', records: 3, complete: true, changesCursor: 'c' });
    expect(complete).toBe('{"export":{"country":"de","records":3,"complete":true,"changesCursor":"c"}}\n');
    const stopped = exportTrailerLine({
      country: 'de',
      records: 1000,
      complete: false,
      reason: 'quota exhausted',
      changesCursor: 'c',
    });
    expect(JSON.parse(stopped)).toEqual({
      export: {
        country: 'de',
        records: 1000,
        complete: false,
        reason: 'quota exhausted',
        changesCursor: 'c',
      },
    });
    expect(stopped.indexOf('\n')).toBe(stopped.length - 1);
  });
});

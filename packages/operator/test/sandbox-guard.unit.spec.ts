import { describe, expect, it } from 'vitest';
import { SandboxRefusedError, sampleEventIds, sandboxRefusal } from '../src/sandbox-guard.js';

const marker = { sampleSeed: 7, sampleEvents: 600 };
const empty = { holdsAccounts: false, holdsEvents: false, marker: null, holdsForeignEvents: false };

describe('sandboxRefusal', () => {
  it('lets the loader prepare a completely empty database, and reload its own', () => {
    expect(sandboxRefusal(empty)).toBeNull();
    expect(sandboxRefusal({ ...empty, marker })).toBeNull();
    expect(sandboxRefusal({ ...empty, marker, holdsEvents: true })).toBeNull();
  });

  it('refuses a live store: events without a marker, even with no account yet', () => {
    expect(sandboxRefusal({ ...empty, holdsEvents: true })).toBe('unmarked-with-events');
  });

  it('refuses a database holding accounts or keys, marked or not', () => {
    expect(sandboxRefusal({ ...empty, holdsAccounts: true })).toBe('holds-accounts');
    expect(sandboxRefusal({ ...empty, holdsAccounts: true, marker, holdsEvents: true })).toBe(
      'holds-accounts',
    );
  });

  it('refuses a marked database holding events the loader did not write', () => {
    expect(sandboxRefusal({ ...empty, marker, holdsEvents: true, holdsForeignEvents: true })).toBe(
      'foreign-events',
    );
  });

  it('names the setting to check in every refusal', () => {
    for (const refusal of ['holds-accounts', 'unmarked-with-events', 'foreign-events'] as const) {
      const error = new SandboxRefusedError(refusal);
      expect(error.refusal).toBe(refusal);
      expect(error.message).toMatch(/SANDBOX_DATABASE_URL.*Nothing was changed/);
    }
  });
});

describe('sampleEventIds', () => {
  it('takes each event id once and skips events without one (the sample holds malformed events)', () => {
    const events = [{ eventId: 'a' }, { eventId: 'b' }, { eventId: 'a' }, { placeId: 'x' }, { eventId: 3 }];
    expect(sampleEventIds(events)).toEqual(['a', 'b']);
  });
});

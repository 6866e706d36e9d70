import { describe, expect, it } from 'vitest';
import { DOCTOR_KEYS, type Doctor } from '@directory/domain';
import { changePayload, testPayload, type ChangeEvent } from '../src/payloads.js';
import { WHOLE_DOCTOR as doctor } from './doctor.fixture.js';

function change(doctorOfChange: Doctor | null): ChangeEvent {
  return {
    placeId: 'ChIJ-payload',
    country: 'de',
    version: 7,
    changedAt: '2026-11-27T10:15:03.120Z',
    doctor: doctorOfChange,
  };
}

/** The body as it was built before the allowlist writer: the documented shape, key for key. */
function documentedBody(event: ChangeEvent): string {
  return JSON.stringify({
    type: event.doctor === null ? 'doctor.deleted' : 'doctor.upserted',
    timestamp: event.changedAt,
    data: {
      id: event.placeId,
      country: event.country,
      version: event.version,
      changedAt: event.changedAt,
      doctor: event.doctor,
    },
  });
}

describe('webhook payloads', () => {
  it('keep the documented bytes for an allowlisted doctor and for a removal', () => {
    expect(changePayload(change(doctor))).toBe(documentedBody(change(doctor)));
    expect(changePayload(change(null))).toBe(documentedBody(change(null)));
  });

  it('never carry a field that is not on the allowlist, at any depth', () => {
    // A stored document holding more than the allowlist (crawl metadata, a field a crawler added).
    const tainted = {
      ...doctor,
      crawlSourceUrl: 'https://internal.example/crawl/42',
      address: { ...doctor.address, geocoderToken: 'secret-token' },
      additionalPhones: [{ number: '+4915112345678', type: 'mobile', rawText: 'internal' }],
    } as unknown as Doctor;
    const body = changePayload(change(tainted));

    expect(body).not.toContain('crawlSourceUrl');
    expect(body).not.toContain('internal.example');
    expect(body).not.toContain('geocoderToken');
    expect(body).not.toContain('rawText');
    const parsed = JSON.parse(body) as { data: { doctor: Record<string, unknown> } };
    expect(Object.keys(parsed.data.doctor)).toEqual(DOCTOR_KEYS);
    expect(body).toBe(documentedBody(change(doctor)));
  });

  it('add mergedInto to the removal of a merged-away record, and to nothing else (API 1.4)', () => {
    const removal = JSON.parse(changePayload({ ...change(null), mergedInto: 'ChIJ-survivor' })) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(removal.type).toBe('doctor.deleted');
    const documented = JSON.parse(documentedBody(change(null))) as { data: Record<string, unknown> };
    expect(removal.data).toEqual({ ...documented.data, mergedInto: 'ChIJ-survivor' });
    // A served record never carries it, and a removal without a merge is the 1.3 body.
    expect(changePayload({ ...change(doctor), mergedInto: 'ChIJ-survivor' })).toBe(
      documentedBody(change(doctor)),
    );
    expect(changePayload({ ...change(null), mergedInto: null })).toBe(documentedBody(change(null)));
  });

  it('refuse a doctor that lacks a required field rather than send a partial record', () => {
    const { profileUrl: _dropped, ...partial } = doctor;
    expect(() => changePayload(change(partial as Doctor))).toThrow(/profileUrl/);
  });

  it('write the test event as documented', () => {
    expect(testPayload('e1', new Date('2026-01-02T03:04:05.000Z'))).toBe(
      '{"type":"webhook.test","timestamp":"2026-01-02T03:04:05.000Z","data":{"endpointId":"e1"}}',
    );
  });
});

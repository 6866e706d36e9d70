import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDoctorExtras } from '../src/places/doctor-extras.js';
import { toDoctor } from '../src/places/doctor.js';
import type { Observed, PlaceEventType } from '../src/events/events.js';
import { foldPlace } from '../src/places/place-fold.js';
import type { StoredPlaceEvent } from '../src/events/place-state.js';
import { crawlMetadata, makeEvent, observed, PLACE_ID, PUBLICATION, SITE_ORIGIN } from './fixtures.js';

/**
 * The provenance of a record, folded from its events: `observedAt` (the latest crawl), `updatedAt` (the
 * latest change of its public fields) and `verifiedAt` (when `verified` last became true). Folded in
 * event time, so late, reordered and replayed events give the same values.
 */

let position = 0;
// Day 1 is 2026-03-01; later days run on past the month's end.
const at = (day: number) => new Date(Date.UTC(2026, 2, day)).toISOString().replace('.000Z', 'Z');
const crawl = (day: number, overrides: Partial<Observed> = {}) =>
  makeEvent(
    'place.crawled',
    { observed: observed(overrides), crawl: crawlMetadata() },
    { eventId: `crawl-${day}`, occurredAt: at(day), position: ++position },
  );
const publish = (day: number, publication = PUBLICATION) =>
  makeEvent('place.published', publication, {
    eventId: `publish-${day}`,
    occurredAt: at(day),
    position: ++position,
  });
const flag = (type: PlaceEventType, day: number) =>
  makeEvent(type, type === 'place.suppressed' ? { reason: 'owner request' } : {}, {
    eventId: `${type}-${day}`,
    occurredAt: at(day),
    position: ++position,
  });

const provenanceOf = (events: StoredPlaceEvent[]) => {
  const state = foldPlace(PLACE_ID, events);
  const { observedAt, updatedAt, verifiedAt } = toDoctorExtras(
    state,
    toDoctor(state, { siteOrigin: SITE_ORIGIN }),
  );
  return { observedAt, updatedAt, verifiedAt };
};
const utc = (day: number) => new Date(at(day)).toISOString();

describe('record provenance', () => {
  it('dates the public fields from the first moment the record has both a crawl and a publication', () => {
    expect(provenanceOf([publish(1), crawl(2)])).toEqual({
      observedAt: utc(2),
      updatedAt: utc(2),
      verifiedAt: null,
    });
    expect(provenanceOf([crawl(1), publish(2)])).toEqual({
      observedAt: utc(1),
      updatedAt: utc(2),
      verifiedAt: null,
    });
  });

  it('moves observedAt with every crawl, and updatedAt only when a public field changed', () => {
    const stream = [crawl(1), publish(1), crawl(5)];
    // The same observation again: seen later, changed never.
    expect(provenanceOf(stream)).toEqual({ observedAt: utc(5), updatedAt: utc(1), verifiedAt: null });
    // What the crawler keeps for itself is not public: changing it changes nothing served.
    const internal = crawl(6, { crawlerNote: 'internal' });
    expect(provenanceOf([...stream, internal]).updatedAt).toBe(utc(1));
    // A public field (the phone) did change.
    expect(provenanceOf([...stream, crawl(7, { phone: '0151 99999999' })])).toEqual({
      observedAt: utc(7),
      updatedAt: utc(7),
      verifiedAt: null,
    });
    // A crawl that finds the old phone again changes it back: that is a change too.
    expect(provenanceOf([...stream, crawl(7, { phone: '0151 99999999' }), crawl(9)]).updatedAt).toBe(utc(9));
  });

  it('leaves updatedAt alone when only whether the record is served changes', () => {
    const stream = [crawl(1), publish(1)];
    for (const type of ['place.suppressed', 'place.closed', 'place.unpublished'] as const) {
      expect(provenanceOf([...stream, flag(type, 4)]).updatedAt).toBe(utc(1));
    }
    // Published again under the same slugs: the same record. Under others: its profile URL changed.
    expect(provenanceOf([...stream, flag('place.unpublished', 3), publish(4)]).updatedAt).toBe(utc(1));
    const moved = { ...PUBLICATION, citySlug: 'potsdam' };
    expect(provenanceOf([...stream, publish(4, moved)]).updatedAt).toBe(utc(4));
  });

  it('dates verification: the first time it became true, cleared when it stops', () => {
    const stream = [crawl(1), publish(1), flag('place.verified', 3)];
    expect(provenanceOf(stream)).toEqual({ observedAt: utc(1), updatedAt: utc(3), verifiedAt: utc(3) });
    expect(provenanceOf([...stream, flag('place.verified', 5)]).verifiedAt).toBe(utc(3));
    const unverified = [...stream, flag('place.unverified', 6)];
    expect(provenanceOf(unverified)).toEqual({ observedAt: utc(1), updatedAt: utc(6), verifiedAt: null });
    expect(provenanceOf([...unverified, flag('place.verified', 8)]).verifiedAt).toBe(utc(8));
  });

  it('writes instants in UTC with milliseconds, whatever offset the events carried', () => {
    const offset = makeEvent(
      'place.crawled',
      { observed: observed(), crawl: crawlMetadata() },
      { eventId: 'offset', occurredAt: '2026-03-01T01:30:00+01:00', position: ++position },
    );
    expect(provenanceOf([offset, publish(1)]).observedAt).toBe('2026-03-01T00:30:00.000Z');
  });

  it('dates the last change of a long history of crawls, whatever they found', () => {
    const phones = ['030 1111111', '030 2222222', '030 3333333'];
    fc.assert(
      fc.property(fc.array(fc.nat({ max: phones.length - 1 }), { minLength: 1, maxLength: 40 }), (found) => {
        const crawls = found.map((phone, index) =>
          makeEvent(
            'place.crawled',
            {
              observed: observed({ phone: phones[phone] ?? null, phoneType: 'landline' }),
              crawl: crawlMetadata(),
            },
            { eventId: `long-${index}`, occurredAt: at(2 + index), position: ++position },
          ),
        );
        // The oracle: the first crawl of the last run of crawls that found the same phone.
        let lastChange = 0;
        for (let index = 1; index < found.length; index += 1)
          if (found[index] !== found[index - 1]) lastChange = index;
        expect(provenanceOf([publish(1), ...crawls])).toEqual({
          observedAt: utc(1 + found.length),
          updatedAt: utc(2 + lastChange),
          verifiedAt: null,
        });
      }),
    );
  });

  it('gives the same provenance for any arrival order, duplicates and late events included', () => {
    const stream = [
      crawl(1),
      publish(1),
      crawl(3, { phone: '030 7654321', phoneType: 'landline' }),
      flag('place.verified', 4),
      crawl(5, { phone: '030 7654321', phoneType: 'landline' }),
      flag('place.suppressed', 6),
      crawl(7, { reviewCount: 90 }),
      flag('place.unverified', 8),
      flag('place.verified', 9),
    ];
    const expected = provenanceOf(stream);
    expect(expected).toEqual({ observedAt: utc(7), updatedAt: utc(9), verifiedAt: utc(9) });
    fc.assert(
      fc.property(
        fc.shuffledSubarray(stream, { minLength: stream.length, maxLength: stream.length }),
        fc.array(fc.nat({ max: stream.length - 1 }), { maxLength: 4 }),
        (arrival, replayed) => {
          const withReplays = [...arrival, ...replayed.map((index) => stream[index] as StoredPlaceEvent)];
          expect(provenanceOf(withReplays)).toEqual(expected);
        },
      ),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { projectPlace } from '../src/search/place-projection.js';
import { toSearchDocument } from '../src/search/search-document.js';
import {
  crawlMetadata,
  makeEvent,
  observed,
  PLACE_ID,
  PUBLICATION,
  servedState,
  SITE_ORIGIN,
} from './fixtures.js';

const options = { siteOrigin: SITE_ORIGIN };

const crawl = makeEvent(
  'place.crawled',
  { observed: observed(), crawl: crawlMetadata() },
  { eventId: 'e1', occurredAt: '2024-05-01T10:00:00Z', position: 1 },
);
const publish = makeEvent('place.published', PUBLICATION, {
  eventId: 'e2',
  occurredAt: '2024-05-01T11:00:00Z',
  position: 2,
});
const unpublish = makeEvent(
  'place.unpublished',
  {},
  { eventId: 'e3', occurredAt: '2024-05-01T12:00:00Z', position: 7 },
);

describe('projectPlace', () => {
  it('projects a served place to its search document, at the count of distinct events folded', () => {
    expect(projectPlace(PLACE_ID, [crawl, publish], options)).toEqual({
      placeId: PLACE_ID,
      stateVersion: 2,
      document: toSearchDocument(servedState(), options),
    });
  });

  it('projects a hidden place to a tombstone, still versioned so a delayed older write cannot revive it', () => {
    expect(projectPlace(PLACE_ID, [crawl, publish, unpublish], options)).toEqual({
      placeId: PLACE_ID,
      stateVersion: 3,
      document: { served: false, placeId: PLACE_ID },
    });
  });

  it('does not depend on arrival order or repeats (the fold law carries over)', () => {
    const inOrder = projectPlace(PLACE_ID, [crawl, publish, unpublish], options);
    expect(projectPlace(PLACE_ID, [unpublish, crawl, publish, crawl], options)).toEqual(inOrder);
  });

  it('projects an empty stream to a tombstone at version 0', () => {
    expect(projectPlace(PLACE_ID, [], options)).toEqual({
      placeId: PLACE_ID,
      stateVersion: 0,
      document: { served: false, placeId: PLACE_ID },
    });
  });
});

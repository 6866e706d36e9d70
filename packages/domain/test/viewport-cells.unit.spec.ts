import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BoundingBox } from '../src/search/geo.js';
import {
  LOCATION_CELL_PRECISION,
  VIEWPORT_MAX_CELLS,
  locationCellsOf,
  viewportCells,
} from '../src/search/viewport-cells.js';

// Degrees as a query string gives them (the API takes at most ten decimals; six are enough here).
const degrees = (max: number) => fc.integer({ min: -max * 1e6, max: max * 1e6 }).map((n) => n / 1e6);

/** A box from a world's width down to about ten centimetres, possibly across the antimeridian. */
const box: fc.Arbitrary<BoundingBox> = fc
  .record({
    west: degrees(180),
    south: degrees(90),
    width: fc
      .integer({ min: -6, max: 2 })
      .chain((power) => fc.double({ min: 1, max: 3.6, noNaN: true }).map((m) => m * 10 ** power)),
    height: fc
      .integer({ min: -6, max: 2 })
      .chain((power) => fc.double({ min: 1, max: 1.8, noNaN: true }).map((m) => m * 10 ** power)),
  })
  .map(({ west, south, width, height }) => {
    const east = west + width > 180 ? west + width - 360 : west + width;
    return { west, south: Math.min(south, 90 - height), east, north: Math.min(south, 90 - height) + height };
  });

/** Where in the box, as fractions of its width and height: its edges and corners often. */
const fraction = fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true }));

function pointIn({ west, south, east, north }: BoundingBox, across: number, up: number) {
  const width = west <= east ? east - west : east + 360 - west;
  const lon = west + across * width;
  return { lat: south + up * (north - south), lon: lon > 180 ? lon - 360 : lon };
}

describe('viewport cells', () => {
  it('gives a point its geohash at every precision, coarsest first', () => {
    // The geohash article's own example point, "u4pruydqqvj".
    expect(locationCellsOf({ lat: 57.64911, lon: 10.40744 })).toEqual(
      ['u', 'u4', 'u4p', 'u4pr', 'u4pru', 'u4pruy', 'u4pruyd'].slice(0, LOCATION_CELL_PRECISION),
    );
  });

  it('covers every point of a box, its edges included, with at most the cap of cells', () => {
    fc.assert(
      fc.property(box, fraction, fraction, (viewport, across, up) => {
        const cells = viewportCells(viewport);
        if (cells === null) return;
        expect(cells.length).toBeLessThanOrEqual(VIEWPORT_MAX_CELLS);
        const held = locationCellsOf(pointIn(viewport, across, up));
        expect(cells.some((cell) => held.includes(cell))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('covers a city viewport with cells of about 5 km, so a page reads about three times its points', () => {
    const lisbon = { west: -9.19, south: 38.68, east: -9.09, north: 38.78 };
    const cells = viewportCells(lisbon) ?? [];
    expect(cells.length).toBeGreaterThanOrEqual(9);
    expect(cells.length).toBeLessThanOrEqual(VIEWPORT_MAX_CELLS);
    expect(new Set(cells.map((cell) => cell.length))).toEqual(new Set([5]));
    expect(new Set(cells).size).toBe(cells.length);
  });

  it('covers a box across the antimeridian on both sides, and leaves the world to the exact check', () => {
    const fiji = viewportCells({ west: 178, south: -18, east: -179, north: -17 }) ?? [];
    for (const lon of [178.5, 179.99, -179.99, -179.5]) {
      const held = locationCellsOf({ lat: -17.5, lon });
      expect(fiji.some((cell) => held.includes(cell))).toBe(true);
    }
    expect(fiji.some((cell) => locationCellsOf({ lat: -17.5, lon: 0 }).includes(cell))).toBe(false);
    expect(viewportCells({ west: -180, south: -90, east: 180, north: 90 })).toBeNull();
  });
});

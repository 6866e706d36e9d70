import ngeohash from 'ngeohash';
import type { BoundingBox, GeoPoint } from './geo.js';

/**
 * Geohash cells, so a map viewport (`bbox`) costs what its page costs, not what the points inside it
 * cost. Elasticsearch's bounding-box query on an indexed point finds every point inside the box before a
 * name-sorted page can stop early: at 2,000,000 places one city viewport held ten times the points it
 * held at 200,000, and its p99 doubled. Instead a located record also carries the geohash cells that hold
 * it, one per precision (`locationCells`), and a viewport is a few of those cells (read lazily, in the
 * index's name order) checked against the exact box on the point's doc values (`locationCheck`): a page
 * sorted by name stops after about its own size times the cells' area over the box's.
 */

/** A record's cells: its geohash's first 1 (5,000 km) to 7 (150 m) characters. */
export const LOCATION_CELL_PRECISION = 7;

/**
 * The most cells a viewport is covered with. Lucene reads up to 16 terms of a `terms` query as a lazy
 * disjunction (more are gathered into a bit set first, which costs every match again).
 */
export const VIEWPORT_MAX_CELLS = 16;

// A point on a cell's edge is in either neighbour depending on the encoder's rounding, and Elasticsearch
// rounds a stored point to about 4e-8 degrees: a box widened by a micro-degree (about 11 cm) is covered
// with every cell that may hold a point on or next to its edges. The exact check keeps the box itself.
const EDGE_MARGIN_DEGREES = 1e-6;

/** The geohash cells that hold a point, coarsest first (`LOCATION_CELL_PRECISION` of them). */
export function locationCellsOf(point: GeoPoint): string[] {
  const hash = ngeohash.encode(point.lat, point.lon, LOCATION_CELL_PRECISION);
  return Array.from({ length: LOCATION_CELL_PRECISION }, (_, index) => hash.slice(0, index + 1));
}

/**
 * The cells that cover a viewport at the finest precision that needs at most `VIEWPORT_MAX_CELLS` of
 * them, or null when even the coarsest needs more (a viewport of most of the world: the exact check alone
 * then, which a page sorted by name also stops early on). A box across the antimeridian is covered on
 * both sides.
 */
export function viewportCells(box: BoundingBox): string[] | null {
  const spans = longitudeSpans(box);
  let chosen: number | null = null;
  for (let precision = 1; precision <= LOCATION_CELL_PRECISION; precision += 1) {
    const count = spans.reduce((sum, span) => sum + cellRange(span, box, precision).count, 0);
    if (count > VIEWPORT_MAX_CELLS) break;
    chosen = precision;
  }
  if (chosen === null) return null;
  const precision = chosen;
  return spans.flatMap((span) => cellsIn(cellRange(span, box, precision), precision));
}

type LongitudeSpan = { west: number; east: number };

/** The box's longitudes as spans that do not cross the antimeridian. */
function longitudeSpans(box: BoundingBox): LongitudeSpan[] {
  return box.west <= box.east
    ? [{ west: box.west, east: box.east }]
    : [
        { west: box.west, east: 180 },
        { west: -180, east: box.east },
      ];
}

type CellRange = { columns: [number, number]; rows: [number, number]; count: number };

/** The columns and rows of the grid of one precision that a span of the box (edges widened) touches. */
function cellRange(span: LongitudeSpan, box: BoundingBox, precision: number): CellRange {
  const { columns, rows } = gridOf(precision);
  const column = (lon: number) => gridIndex(lon + 180, 360 / columns, columns);
  const row = (lat: number) => gridIndex(lat + 90, 180 / rows, rows);
  const columnRange: [number, number] = [
    column(span.west - EDGE_MARGIN_DEGREES),
    column(span.east + EDGE_MARGIN_DEGREES),
  ];
  const rowRange: [number, number] = [
    row(box.south - EDGE_MARGIN_DEGREES),
    row(box.north + EDGE_MARGIN_DEGREES),
  ];
  const count = (columnRange[1] - columnRange[0] + 1) * (rowRange[1] - rowRange[0] + 1);
  return { columns: columnRange, rows: rowRange, count };
}

/** A geohash of n characters splits 5n bits between longitude (the odd one) and latitude. */
function gridOf(precision: number): { columns: number; rows: number } {
  const bits = 5 * precision;
  return { columns: 2 ** Math.ceil(bits / 2), rows: 2 ** Math.floor(bits / 2) };
}

function gridIndex(offset: number, size: number, count: number): number {
  return Math.min(count - 1, Math.max(0, Math.floor(offset / size)));
}

/** Each cell of a range, named by the geohash of its centre (far from any edge, so no rounding matters). */
function cellsIn(range: CellRange, precision: number): string[] {
  const { columns, rows } = gridOf(precision);
  const width = 360 / columns;
  const height = 180 / rows;
  const cells: string[] = [];
  for (let column = range.columns[0]; column <= range.columns[1]; column += 1)
    for (let row = range.rows[0]; row <= range.rows[1]; row += 1)
      cells.push(ngeohash.encode(-90 + (row + 0.5) * height, -180 + (column + 0.5) * width, precision));
  return cells;
}

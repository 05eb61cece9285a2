// Where the documents are, for "near me": each document's coordinates (index-data.ts, docLat and
// docLon: the catalog's doubles, so a distance here is the reference engine's to the bit), and a
// grid of cells of GEO_CELL_DEGREES, each listing its documents. A radius reads only the cells
// under its disc's bounding box, takes those wholly inside the disc whole, and measures (geo.ts,
// distanceKm) only the documents of the cells its circle crosses: its cost grows with the
// schools around the point, not with the catalog.
import { distanceKm, EARTH_RADIUS_KM, type GeoPoint } from '../../domain/catalog/geo.ts';
import type { IndexData } from './index-data.ts';
import { firstAtLeast } from './sorted.ts';

/** A cell's side in degrees of latitude and of longitude (about 28 km north to south). */
export const GEO_CELL_DEGREES = 0.25;
const ROWS = 180 / GEO_CELL_DEGREES;
const COLUMNS = 360 / GEO_CELL_DEGREES;
/** The key of the cell of points off the globe (the importer refuses them; a catalog given whole may have them): every radius measures them. */
const OFF_GLOBE = ROWS * COLUMNS;

/**
 * Distances are rounded to metres (geo.ts), so a school up to half a metre beyond a radius is
 * within it; boxes are this much larger, which also covers the arithmetic's last bits.
 */
const MARGIN_KM = 0.001;
const DEG = 180 / Math.PI;

const row = (latitude: number): number => Math.min(ROWS - 1, Math.floor((latitude + 90) / GEO_CELL_DEGREES));
const column = (longitude: number): number => Math.min(COLUMNS - 1, Math.floor((longitude + 180) / GEO_CELL_DEGREES));
const onGlobe = (latitude: number, longitude: number): boolean =>
  latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180;

/** The grid's arrays (index-data.ts). */
export type GeoGrid = Pick<IndexData, 'geoCell' | 'geoCellStart' | 'geoDocs'>;

/** The grid of the documents that have coordinates (NaN: unknown). */
export function buildGeoGrid(docLat: Float64Array, docLon: Float64Array): GeoGrid {
  // Each located document as cell × DOCS + doc (exact in a double: cells < 2^20, documents <
  // 2^32), sorted as numbers: by cell, then document, with no comparator to call.
  const DOCS = 2 ** 32;
  const sorted = new Float64Array(docLat.length);
  let located = 0;
  for (let doc = 0; doc < docLat.length; doc++) {
    const lat = docLat[doc]!;
    const lon = docLon[doc]!;
    if (Number.isNaN(lat) || Number.isNaN(lon)) continue;
    const cell = onGlobe(lat, lon) ? row(lat) * COLUMNS + column(lon) : OFF_GLOBE;
    sorted[located++] = cell * DOCS + doc;
  }
  const keys = sorted.subarray(0, located).sort();
  const geoDocs = new Uint32Array(located);
  const cells: number[] = [];
  const starts: number[] = [];
  for (let at = 0; at < located; at++) {
    const cell = Math.floor(keys[at]! / DOCS);
    geoDocs[at] = keys[at]! - cell * DOCS;
    if (cells.length === 0 || cells[cells.length - 1] !== cell) {
      cells.push(cell);
      starts.push(at);
    }
  }
  starts.push(located);
  return { geoCell: Uint32Array.from(cells), geoCellStart: Uint32Array.from(starts), geoDocs };
}

/**
 * The bounding box of a disc on the sphere (the points within `km` of a centre, and a little
 * more): a point outside it is farther. Latitude ± the angular radius; longitude ± asin(sin δ /
 * cos φ) unless a pole is inside, then every longitude.
 */
export class GeoBox {
  latMin = 0;
  latMax = 0;
  /** Degrees of longitude either side of the centre's; 180 or more: every longitude. */
  lonHalf = 0;
  lon0 = 0;
  /** The radius the box was last made for. */
  km = Number.NaN;

  around(center: GeoPoint, km: number): this {
    this.km = km;
    const delta = (km + MARGIN_KM) / EARTH_RADIUS_KM;
    this.lon0 = center.longitude;
    this.latMin = center.latitude - delta * DEG;
    this.latMax = center.latitude + delta * DEG;
    const ratio = Math.sin(Math.min(delta, Math.PI / 2)) / Math.cos(center.latitude / DEG);
    this.lonHalf =
      delta >= Math.PI / 2 || this.latMin <= -90 || this.latMax >= 90 || !(ratio < 1)
        ? 180
        : Math.asin(ratio) * DEG * (1 + 1e-9) + 1e-9;
    return this;
  }

  contains(latitude: number, longitude: number): boolean {
    // Off the globe: not for a box to say (distanceKm decides).
    if (!onGlobe(latitude, longitude)) return true;
    if (latitude < this.latMin || latitude > this.latMax) return false;
    if (this.lonHalf >= 180) return true;
    let apart = Math.abs(longitude - this.lon0);
    if (apart > 180) apart = 360 - apart;
    return apart <= this.lonHalf;
  }
}

/** A point to measure from, reused: no object per document measured. */
const point = { latitude: 0, longitude: 0 };

/** distanceKm from `near` to the document, or undefined when its coordinates are unknown. */
export function docDistance(d: IndexData, doc: number, near: GeoPoint): number | undefined {
  const lat = d.docLat[doc]!;
  const lon = d.docLon[doc]!;
  if (Number.isNaN(lat) || Number.isNaN(lon)) return undefined;
  point.latitude = lat;
  point.longitude = lon;
  return distanceKm(near, point);
}

/**
 * How far a point of a cell can be from the cell's centre: its corner at the equator (where a
 * degree of longitude is longest), plus a hair. The farthest point of a cell from its centre is a
 * corner: along a parallel the distance grows with the longitude apart, along a meridian it has
 * one minimum.
 */
const CELL_REACH_KM = 2 * EARTH_RADIUS_KM * Math.asin(Math.SQRT2 * Math.sin(GEO_CELL_DEGREES / 4 / DEG)) + MARGIN_KM;

/**
 * Sets in `out` (zeroed first) the documents within `radiusKm` of `near` (filters.ts, inScope:
 * distance_km ≤ radius_km); `box` is scratch. Reads the grid's cells under the disc's bounding
 * box: a cell wholly inside the disc is taken whole, one wholly outside is left, and only in the
 * cells the circle crosses is each document (inside the box) measured.
 */
export function withinRadius(d: IndexData, near: GeoPoint, radiusKm: number, out: Uint32Array, box: GeoBox): void {
  out.fill(0);
  box.around(near, radiusKm);
  const centre = { latitude: 0, longitude: 0 };
  const take = (from: number, to: number, measure: boolean) => {
    for (let at = from; at < to; at++) {
      const doc = d.geoDocs[at]!;
      if (measure && !(box.contains(d.docLat[doc]!, d.docLon[doc]!) && docDistance(d, doc, near)! <= radiusKm))
        continue;
      out[doc >>> 5]! |= 1 << (doc & 31);
    }
  };
  // Columns as ranges [from, to], split where the box crosses the antimeridian.
  const columns: [number, number][] = [];
  if (box.lonHalf >= 180) columns.push([0, COLUMNS - 1]);
  else {
    const west = near.longitude - box.lonHalf;
    const east = near.longitude + box.lonHalf;
    if (west < -180) columns.push([column(west + 360), COLUMNS - 1], [0, column(east)]);
    else if (east > 180) columns.push([column(west), COLUMNS - 1], [0, column(east - 360)]);
    else columns.push([column(west), column(east)]);
  }
  const cells = d.geoCell;
  for (let r = row(Math.max(-90, box.latMin)); r <= row(Math.min(90, box.latMax)); r++) {
    centre.latitude = -90 + (r + 0.5) * GEO_CELL_DEGREES;
    for (const [from, to] of columns) {
      const last = r * COLUMNS + to;
      for (let c = firstAtLeast(cells, r * COLUMNS + from); c < cells.length && cells[c]! <= last; c++) {
        centre.longitude = -180 + ((cells[c]! % COLUMNS) + 0.5) * GEO_CELL_DEGREES;
        // distanceKm is rounded to metres: 2 × MARGIN_KM covers it, and the documents' rounding.
        const apart = distanceKm(near, centre);
        if (apart - CELL_REACH_KM - 2 * MARGIN_KM > radiusKm) continue;
        take(d.geoCellStart[c]!, d.geoCellStart[c + 1]!, apart + CELL_REACH_KM + 2 * MARGIN_KM > radiusKm);
      }
    }
  }
  const off = cells.length - 1;
  if (off >= 0 && cells[off] === OFF_GLOBE) take(d.geoCellStart[off]!, d.geoCellStart[off + 1]!, true);
}

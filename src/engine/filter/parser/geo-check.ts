// Evaluation-time checks of geo arguments (milli `index_filter.rs`, `BadGeoError`), for the
// evaluator to call once the `_geo`/`_geojson` filterable checks have passed, as milli does:
//
// • every number must be finite (`1e400` → `Non finite floats are not supported`);
// • latitudes in [-90, 90], longitudes in [-180, 180], with a hint `(lng + 180) mod⁺ 360 − 180`;
// • `_geoRadius`: parse lat, lng → check lat, lng → parse radius → resolution (truncated to an
//   integer, default 125) in [3, 1000];
// • `_geoBoundingBox`: parse the four numbers → check top-right lat, lng, bottom-left lat, lng →
//   top below bottom is an error blaming the bottom-left *longitude* (milli's choice);
// • `_geoPolygon`: point by point, parse lat, lng → check lat, lng.
// Each error quotes the offending number's span.

import type { GeoBoundingBoxNode, GeoNumber, GeoPolygonNode, GeoRadiusNode } from './ast.ts';
import { spanError } from './errors.ts';
import { formatRustFloat, toUsize } from './numbers.ts';

export const DEFAULT_GEO_RESOLUTION = 125;

export interface GeoRadius {
  readonly lat: number;
  readonly lng: number;
  /** Meters. */
  readonly radius: number;
  /** Circle approximation for `_geojson` shapes. */
  readonly resolution: number;
}

export interface GeoBoundingBox {
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly left: number;
}

/** The checked arguments of `_geoRadius`; throws `FilterSyntaxError`. */
export function geoRadiusArgs(node: GeoRadiusNode): GeoRadius {
  const lat = finite(node.lat);
  const lng = finite(node.lng);
  checkLatitude(node.lat, lat);
  checkLongitude(node.lng, lng);
  const radius = finite(node.radius);
  let resolution = DEFAULT_GEO_RESOLUTION;
  if (node.resolution !== null) {
    const asInteger = toUsize(finite(node.resolution));
    if (asInteger < 3n || asInteger > 1000n) {
      throw spanError(
        `Invalid resolution \`${asInteger}\`. Resolution must be between 3 and 1000.`,
        node.resolution.span,
      );
    }
    resolution = Number(asInteger);
  }
  return { lat, lng, radius, resolution };
}

/** The checked corners of `_geoBoundingBox`; throws `FilterSyntaxError`. */
export function geoBoundingBoxArgs(node: GeoBoundingBoxNode): GeoBoundingBox {
  const [topToken, rightToken] = node.topRight;
  const [bottomToken, leftToken] = node.bottomLeft;
  const top = finite(topToken);
  const right = finite(rightToken);
  const bottom = finite(bottomToken);
  const left = finite(leftToken);
  checkLatitude(topToken, top);
  checkLongitude(rightToken, right);
  checkLatitude(bottomToken, bottom);
  checkLongitude(leftToken, left);
  if (top < bottom) {
    throw spanError(
      `The top latitude \`${formatRustFloat(top)}\` is below the bottom latitude \`${formatRustFloat(bottom)}\`.`,
      leftToken.span,
    );
  }
  return { top, right, bottom, left };
}

/** The checked `[lat, lng]` points of `_geoPolygon`; throws `FilterSyntaxError`. */
export function geoPolygonPoints(node: GeoPolygonNode): [lat: number, lng: number][] {
  return node.points.map(([latToken, lngToken]) => {
    const lat = finite(latToken);
    const lng = finite(lngToken);
    checkLatitude(latToken, lat);
    checkLongitude(lngToken, lng);
    return [lat, lng];
  });
}

function finite(token: GeoNumber): number {
  // The grammar only lets float literals through, so the parse itself cannot fail.
  if (Number.isNaN(token.value)) throw spanError('invalid float literal', token.span);
  if (!Number.isFinite(token.value)) throw spanError('Non finite floats are not supported', token.span);
  return token.value;
}

function checkLatitude(token: GeoNumber, lat: number): void {
  if (lat >= -90 && lat <= 90) return;
  throw spanError(
    `Bad latitude \`${formatRustFloat(lat)}\`. Latitude must be contained between -90 and 90 degrees.`,
    token.span,
  );
}

function checkLongitude(token: GeoNumber, lng: number): void {
  if (lng >= -180 && lng <= 180) return;
  const shifted = (lng + 180) % 360;
  const hint = (shifted < 0 ? shifted + 360 : shifted) - 180;
  throw spanError(
    `Bad longitude \`${formatRustFloat(lng)}\`. Longitude must be contained between -180 and 180 degrees. Hint: try using \`${formatRustFloat(hint)}\` instead.`,
    token.span,
  );
}

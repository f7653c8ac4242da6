// geo-cities: 135,233 GeoNames cities with the dataset's geo workload (Meilisearch's geosort
// queries: _geoPoint sorts and _geoRadius filters from Lille, Tokyo and Point Nemo, plus the added
// bounding-box, text+filter, text+sort and facet queries), widened with seeded random points so
// that each class has many distinct queries. Every answer is checked against a naive computation
// over the documents (haversine distances, counts). See bench/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { all, expectFacets, expectTotal, haversine, quote, runFilterWorkload, type BenchQuery, type Check, type SearchBody, type SearchReply } from '../lib/filter-bench.ts';
import { titleQueries } from '../lib/querygen.ts';
import { readNdjson, Rng, type Doc } from '../lib/text.ts';
import type { Workload } from './types.ts';

export const CITIES = 'geo-cities-geonames-135k';
const SEED = 135233;
/** the target for any filter, facet or geo query on the cities */
export const CITIES_TARGET_MS = 5;

interface DatasetQuery {
  q?: string;
  limit?: number;
  sort?: string[];
  filter?: string;
  facets?: string[];
  origin: string;
}

export interface CitiesData {
  docs: Doc[];
  byId: Map<string, Doc>;
  lat: Float64Array;
  lng: Float64Array;
  settings: Record<string, unknown>;
  queries: DatasetQuery[];
}

export function loadCities(datasetsDir: string): CitiesData {
  const dir = path.join(datasetsDir, CITIES);
  const docs = readNdjson(path.join(dir, 'cities.ndjson'));
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'queries.json'), 'utf8')) as { settings_for_this_dataset: Record<string, unknown>; queries: DatasetQuery[] };
  const geo = docs.map((d) => d._geo as { lat: number; lng: number });
  return {
    docs,
    byId: new Map(docs.map((d) => [String(d.id), d])),
    lat: Float64Array.from(geo, (g) => g.lat),
    lng: Float64Array.from(geo, (g) => g.lng),
    // the dataset's settings; totals up to the whole index are exact, so the checks can compare them
    settings: { ...spec.settings_for_this_dataset, pagination: { maxTotalHits: 1_000_000 } },
    queries: spec.queries,
  };
}

/** The unfiltered candidates of a keyword query (ids), from one search with a limit above the index size. */
export function unfiltered(search: (b: SearchBody) => SearchReply, q: string): string[] {
  const r = search({ q, limit: 1_000_000, attributesToRetrieve: ['id'] });
  if (r.hits.length !== r.estimatedTotalHits) throw new Error(`unfiltered ${JSON.stringify(q)}: ${r.hits.length} hits but estimatedTotalHits ${r.estimatedTotalHits}`);
  return r.hits.map((h) => String(h.id));
}

const GEO_POINT = /^_geoPoint\(([-\d.]+),\s*([-\d.]+)\):(asc|desc)$/;
const GEO_RADIUS = /^_geoRadius\(([-\d.]+),\s*([-\d.]+),\s*([\d.]+)\)$/;
const GEO_BOX = /^_geoBoundingBox\(\[([-\d.]+),\s*([-\d.]+)\],\s*\[([-\d.]+),\s*([-\d.]+)\]\)$/;

/** Distances from (lat, lng) to every city, sorted. */
function sortedDistances(data: CitiesData, lat: number, lng: number): Float64Array {
  const d = new Float64Array(data.docs.length);
  for (let i = 0; i < d.length; i++) d[i] = haversine(lat, lng, data.lat[i]!, data.lng[i]!);
  return d.sort();
}

/**
 * A `_geoPoint` sort: the i-th hit is no farther (asc) / no nearer (desc) than the naive i-th
 * nearest (farthest) city, with Meilisearch's 1 m bucket slack; hits come in distance order;
 * `_geoDistance` is the hit's rounded distance.
 */
function geoSortCheck(data: CitiesData, lat: number, lng: number, asc: boolean, limit: number): Check {
  const sorted = sortedDistances(data, lat, lng);
  if (!asc) sorted.reverse();
  const naive = sorted.slice(0, limit); // kept by the check: the first `limit` only
  return (r) => {
    const want = Math.min(limit, data.docs.length);
    if (r.hits.length !== want) return `${r.hits.length} hits, expected ${want}`;
    let prev = asc ? -Infinity : Infinity;
    for (const [i, h] of r.hits.entries()) {
      const g = h._geo as { lat: number; lng: number };
      const d = haversine(lat, lng, g.lat, g.lng);
      if (typeof h._geoDistance !== 'number' || Math.abs(h._geoDistance - d) > 1) return `hit ${i}: _geoDistance ${String(h._geoDistance)}, computed ${d}`;
      if (asc ? d > naive[i]! + 1 : d < naive[i]! - 1) return `hit ${i} at ${d} m, but the naive ${asc ? 'nearest' : 'farthest'} #${i} is at ${naive[i]} m`;
      if (asc ? d < prev - 1 : d > prev + 1) return `hit ${i} at ${d} m is out of order (previous ${prev} m)`;
      prev = d;
    }
    return null;
  };
}

/** A `_geoRadius` filter: the total is the naive count, every hit is inside. */
function radiusQuery(data: CitiesData, lat: number, lng: number, meters: number, limit: number): BenchQuery {
  const inside = (la: number, ln: number) => haversine(lat, lng, la, ln) <= meters;
  let n = 0;
  for (let i = 0; i < data.docs.length; i++) if (inside(data.lat[i]!, data.lng[i]!)) n++;
  const pred = (d: Doc) => inside((d._geo as { lat: number }).lat, (d._geo as { lng: number }).lng);
  return { body: { limit, filter: `_geoRadius(${lat}, ${lng}, ${meters})` }, check: expectTotal(n, { pred, minHits: Math.min(1, n) }), selectivity: n / data.docs.length };
}

/** A `_geoBoundingBox` filter ([top, right], [bottom, left]; right < left crosses the antimeridian). */
function boxQuery(data: CitiesData, top: number, right: number, bottom: number, left: number, limit: number): BenchQuery {
  const inside = (la: number, ln: number) => la >= bottom && la <= top && (right < left ? ln >= left || ln <= right : ln >= left && ln <= right);
  let n = 0;
  for (let i = 0; i < data.docs.length; i++) if (inside(data.lat[i]!, data.lng[i]!)) n++;
  const pred = (d: Doc) => inside((d._geo as { lat: number }).lat, (d._geo as { lng: number }).lng);
  return {
    body: { limit, filter: `_geoBoundingBox([${top}, ${right}], [${bottom}, ${left}])` },
    check: expectTotal(n, { pred, minHits: Math.min(1, n) }),
    selectivity: n / data.docs.length,
  };
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

export const geoCities: Workload = {
  name: 'geo-cities',
  description: '135k cities: geo radius / bounding box / geo sort (asc, desc, top 20), text+filter, text+sort and facets, checked naively',
  dataset: CITIES,
  async run(ctx) {
    const data = loadCities(ctx.datasetsDir);
    const N = data.docs.length;
    const rng = new Rng(SEED);
    const ds = data.queries;
    /** a point within ±spread/2 degrees of a random city */
    const near = (spread = 0.1) => {
      const i = rng.int(N);
      return [round4(data.lat[i]! + (rng.next() - 0.5) * spread), round4(data.lng[i]! + (rng.next() - 0.5) * spread)] as const;
    };
    await runFilterWorkload(ctx, {
      uid: 'bench-geo-cities',
      primaryKey: 'id',
      docs: data.docs,
      settings: data.settings,
      classes(search) {
        const sortQuery = (body: SearchBody): BenchQuery => {
          const m = GEO_POINT.exec((body.sort as string[])[0]!)!;
          return { body, check: geoSortCheck(data, Number(m[1]), Number(m[2]), m[3] === 'asc', (body.limit as number | undefined) ?? 20) };
        };
        const fromDataset = (pick: (q: DatasetQuery) => boolean) => ds.filter(pick).map(({ origin: _o, ...body }) => body as SearchBody);
        const radius = (km: number): BenchQuery[] => [
          ...fromDataset((q) => q.filter?.startsWith('_geoRadius') === true && GEO_RADIUS.exec(q.filter)![3] === String(km * 1000)).map((body) => {
            const m = GEO_RADIUS.exec(body.filter as string)!;
            return radiusQuery(data, Number(m[1]), Number(m[2]), Number(m[3]), body.limit as number);
          }),
          // centres within about a radius of a city (so that many circles hold a few cities)
          ...Array.from({ length: 50 }, () => radiusQuery(data, ...near(km / 111), km * 1000, 100)),
        ];
        const boxes: BenchQuery[] = fromDataset((q) => q.filter?.startsWith('_geoBoundingBox') === true).map((body) => {
          const m = GEO_BOX.exec(body.filter as string)!.slice(1).map(Number) as [number, number, number, number];
          return boxQuery(data, ...m, body.limit as number);
        });
        for (let i = 0; i < 50; i++) {
          const [la, ln] = near();
          const h = round4(0.1 + rng.next() * 4.9);
          const top = Math.min(90, round4(la + h));
          const bottom = Math.max(-90, round4(la - h));
          let left = round4(ln - 2 * h);
          let right = round4(ln + 2 * h);
          if (left < -180) left = round4(left + 360);
          if (right > 180) right = round4(right - 360);
          boxes.push(boxQuery(data, top, right, bottom, left, 100));
        }

        // text + filter: the dataset's `san` query, and name prefixes with their country and half their population
        const names = titleQueries(data.docs, 'name', 'id', { n: 60, seed: SEED + 1, limit: 20, typoRate: 0, prefixRate: 0.5, maxWords: 2 });
        const textFilter: BenchQuery[] = [];
        const textSort: BenchQuery[] = [];
        const withFilter = (q: string, country: string, min: number, limit: number) => {
          const ids = unfiltered(search, q);
          const pred = (d: Doc) => d.country === country && (d.population as number) > min;
          const n = ids.filter((id) => pred(data.byId.get(id)!)).length;
          return { body: { q, limit, filter: `country = ${quote(country)} AND population > ${min}` }, check: expectTotal(n, { pred, byId: data.byId, minHits: Math.min(1, n) }) };
        };
        for (const body of fromDataset((q) => q.q !== undefined && q.q !== '' && q.filter !== undefined)) {
          const m = /^country = (\w+) AND population > (\d+)$/.exec(body.filter as string)!;
          textFilter.push({ ...withFilter(body.q as string, m[1]!, Number(m[2]), body.limit as number), body });
        }
        for (const spec of names.slice(0, 50)) {
          const src = data.byId.get(spec.expected![0]!)!;
          textFilter.push(withFilter(spec.q, src.country as string, Math.floor((src.population as number) / 2), 20));
        }
        for (const body of [...fromDataset((q) => q.q !== undefined && q.q !== '' && q.sort !== undefined), ...names.slice(0, 50).map((s) => ({ q: s.q, limit: 20, sort: ['population:desc'] }))]) {
          const n = unfiltered(search, body.q as string).length;
          textSort.push({ body, check: expectTotal(n, { minHits: Math.min(1, n) }) });
        }

        const facetFields = ['country', 'featureCode'];
        const pops = data.docs.map((d) => d.population as number).sort((a, b) => a - b);
        const facetFiltered: BenchQuery[] = [];
        for (let i = 0; i < 20; i++) {
          if (i % 2 === 0) {
            const min = pops[Math.floor(rng.next() * N)]!;
            const docs = data.docs.filter((d) => (d.population as number) >= min);
            facetFiltered.push({ body: { q: '', limit: 0, facets: facetFields, filter: `population >= ${min}` }, check: all(expectTotal(docs.length), expectFacets(docs, facetFields, [])) });
          } else {
            const [la, ln] = near();
            const docs = data.docs.filter((d) => haversine(la, ln, (d._geo as { lat: number }).lat, (d._geo as { lng: number }).lng) <= 200_000);
            facetFiltered.push({ body: { q: '', limit: 0, facets: facetFields, filter: `_geoRadius(${la}, ${ln}, 200000)` }, check: all(expectTotal(docs.length), expectFacets(docs, facetFields, [])) });
          }
        }
        const byPopulation = [...data.docs].sort((a, b) => (b.population as number) - (a.population as number));
        const popSort = (asc: boolean): BenchQuery => {
          const want = (asc ? [...byPopulation].reverse() : byPopulation).slice(0, 20).map((d) => d.population as number);
          return {
            body: { q: '', limit: 20, sort: [`population:${asc ? 'asc' : 'desc'}`] },
            check: (r) => {
              const got = r.hits.map((h) => h.population as number);
              return JSON.stringify(got) === JSON.stringify(want) ? null : `populations ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`;
            },
          };
        };

        const T = CITIES_TARGET_MS;
        return [
          { name: 'placeholder', description: 'q "" limit 100, no geo (dataset)', queries: fromDataset((q) => q.q === '' && q.facets === undefined).map((body) => ({ body, check: expectTotal(N, { minHits: 100 }) })) },
          { name: 'geo-sort-asc', description: '_geoPoint asc from Lille, Tokyo, Point Nemo, limit 100 (dataset)', queries: fromDataset((q) => q.sort?.[0]?.endsWith(':asc') === true && q.sort[0].startsWith('_geoPoint')).map(sortQuery), targetP95Ms: T },
          { name: 'geo-sort-desc', description: '_geoPoint desc from the same points, limit 100 (dataset)', queries: fromDataset((q) => q.sort?.[0]?.endsWith(':desc') === true && q.sort[0].startsWith('_geoPoint')).map(sortQuery), targetP95Ms: T },
          {
            name: 'geo-sort-top20',
            description: '_geoPoint asc from 100 random points near cities, limit 20 (the whole index sorted)',
            queries: Array.from({ length: 100 }, () => {
              const [la, ln] = near();
              return sortQuery({ q: '', limit: 20, sort: [`_geoPoint(${la}, ${ln}):asc`] });
            }),
            targetP95Ms: 10,
          },
          { name: 'radius-100km', description: '_geoRadius 100 km: dataset (Lille, Tokyo, Point Nemo) + 50 random points within ±0.45° of a city, limit 100', queries: radius(100), targetP95Ms: T },
          { name: 'radius-1km', description: '_geoRadius 1 km: dataset + 50 random points within ±0.0045° of a city, limit 100', queries: radius(1), targetP95Ms: T },
          { name: 'bbox', description: '_geoBoundingBox: dataset (northern France/Benelux) + 50 random boxes 0.2-10° high, twice as wide, limit 100', queries: boxes, targetP95Ms: T },
          { name: 'text+filter', description: 'q "san" country = US AND population > 100000 (dataset) + 50 city names / prefixes with their country and population / 2, limit 20', queries: textFilter, targetP95Ms: T },
          { name: 'text+sort', description: 'q "paris" sort population:desc (dataset) + 50 city names / prefixes, limit 20', queries: textSort },
          { name: 'facets', description: 'q "" limit 0, facets country + featureCode (dataset)', queries: fromDataset((q) => q.facets !== undefined).map((body) => ({ body, check: expectFacets(data.docs, facetFields, []) })), targetP95Ms: T },
          { name: 'facets+filter', description: 'facets country + featureCode with population >= x or a 200 km radius, limit 0', queries: facetFiltered, targetP95Ms: T },
          { name: 'population-sort', description: 'q "" sort population:desc / asc, limit 20', queries: [popSort(false), popSort(true)] },
        ];
      },
    });
  },
};

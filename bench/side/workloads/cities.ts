// side-cities: 135,233 GeoNames cities with the dataset's settings. Three sets: city names with
// typos and prefixes; a geo radius filter with a geo sort around random points; a name prefix with a
// population filter and two facets. Seeded, the same bodies for every server.
import { loadCities } from '../../workloads/geo-cities.ts';
import { titleQueries } from '../../lib/querygen.ts';
import { Rng } from '../../lib/text.ts';
import { datasetIndex } from '../payloads.ts';
import type { SideWorkload } from '../types.ts';

const SEED = 135233;
const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

export const sideCities: SideWorkload = {
  name: 'side-cities',
  description: '135k cities: names with typos/prefixes; geo radius + geo sort; prefix + filter + facets',
  dataset: 'geo-cities-geonames-135k',
  specs({ datasetsDir }) {
    const data = loadCities(datasetsDir);
    const { docs } = data;
    const uid = 'side-cities';
    // the dataset's own settings (loadCities widens maxTotalHits for its checks; not needed here)
    const { pagination: _wide, ...settings } = data.settings;
    const names = titleQueries(docs, 'name', 'id', { n: 500, seed: SEED, limit: 10, typoRate: 0.4, prefixRate: 0.25, maxWords: 2 });
    const rng = new Rng(SEED + 10);
    const geo = Array.from({ length: 200 }, (_, k) => {
      const i = rng.int(docs.length);
      const lat = round4(data.lat[i]! + (rng.next() - 0.5) * 0.2);
      const lng = round4(data.lng[i]! + (rng.next() - 0.5) * 0.2);
      const meters = k % 2 === 0 ? 10_000 : 100_000;
      return { q: '', limit: 10, filter: `_geoRadius(${lat}, ${lng}, ${meters})`, sort: [`_geoPoint(${lat}, ${lng}):asc`] };
    });
    const prefixes = titleQueries(docs, 'name', 'id', { n: 300, seed: SEED + 11, limit: 10, typoRate: 0, prefixRate: 1, maxWords: 2 });
    const filtered = prefixes.map((p) => {
      const src = data.byId.get(p.expected![0]!)!;
      return { q: p.q, limit: 10, filter: `population >= ${Math.floor((src.population as number) / 2)}`, facets: ['country', 'featureCode'] };
    });
    return [
      {
        label: '',
        indexes: [datasetIndex(uid, 'id', docs, settings)],
        sets: [
          { name: 'names', description: '500 city names (1-2 words): 35% clean, 40% typo, 25% prefix', index: uid, bodies: names.map((n) => ({ q: n.q, limit: 10 })) },
          { name: 'geo-radius+sort', description: '200 random points near cities: _geoRadius 10/100 km + _geoPoint asc, q ""', index: uid, bodies: geo },
          { name: 'prefix+filter+facets', description: '300 name prefixes, population >= half the source city, facets country + featureCode', index: uid, bodies: filtered },
        ],
        duringIngest: { set: 'names' },
      },
    ];
  },
};

/**
 * Stage: one travel document per country with every spec fact, one per
 * region whose facts differ (Japan's frequency, Brazil's voltage), the
 * climate normals per destination, and an index with the coverage report.
 */
import type { ClimateNormals, Country, TravelIndex, TravelInfo } from '../../lib/schema-types.js';
import type { FileMap } from './emit-business-days.js';

/** Mains frequency; the schema check after emit rejects anything but 50 and 60. */
type Hz = TravelInfo['power']['frequency'];
import type { IngestedPower } from './ingest-power.js';

export const TRAVEL_SCHEMA_ROUTES: [RegExp, string][] = [
  [/^travel\/index\.json$/, 'travel-index.schema.json'],
  [/^travel\/[A-Z]{2}(-[A-Z0-9]{1,3})?\.json$/, 'travel.schema.json'],
  [/^travel\/climate\/[A-Z]{2}\.json$/, 'climate.schema.json'],
];

const REST_COUNTRIES = 'REST Countries (MPL-2.0)';

function climateSource(c: ClimateNormals | undefined): string | null {
  return c ? `WMO normals 1991-2020, station ${c.station.name} (${c.station.wmo_id}), ${c.station.distance_km} km` : null;
}

export function emitTravel(countries: Country[], power: IngestedPower, climate: Record<string, ClimateNormals>): FileMap {
  const files: FileMap = new Map();
  const docs = new Map<string, TravelInfo>();
  const missingOf = new Map<string, string[]>();
  const count = (field: string, source: string, fields: Record<string, Record<string, number>>) => {
    fields[field] ??= {};
    fields[field][source] = (fields[field][source] ?? 0) + 1;
  };
  const fields: Record<string, Record<string, number>> = {};

  for (const c of countries) {
    const p = power.power[c.code];
    const e = power.emergency[c.code];
    const missing = [!p && 'power', !e && 'emergency', !c.phone_code && 'phone_code'].filter((x): x is string => Boolean(x));
    if (p) count('power', p.inherited_from ? 'inherited' : p.source === 'fluids-power' ? 'fluids-power' : 'override', fields);
    if (e) count('emergency', e.source.startsWith('android-ecc') ? 'android-ecc' : 'override', fields);
    if (c.phone_code) count('phone_code', REST_COUNTRIES, fields);
    count('driving_side', REST_COUNTRIES, fields);
    if (climate[c.code]) count('climate', 'WMO normals 1991-2020', fields);
    if (missing.length || !p || !e || !c.phone_code) {
      missingOf.set(c.code, missing);
      continue;
    }
    docs.set(c.code, {
      destination: c.code,
      country: c.code,
      driving_side: c.driving_side,
      emergency: { ambulance: e.ambulance, fire: e.fire, police: e.police },
      phone_code: c.phone_code,
      power: { frequency: p.frequency as Hz, plugs: p.plugs, voltage: p.voltage },
      power_compatibility: null,
      climate: null,
      sources: {
        power: p.inherited_from ? `${p.source} (inherited from ${p.inherited_from})` : p.source,
        emergency: e.source,
        phone_code: REST_COUNTRIES,
        driving_side: REST_COUNTRIES,
        climate: climateSource(climate[c.code]),
      },
    });
  }

  // Regions whose facts differ get their own document; every other ISO 3166-2 code answers with its country's.
  const regions: Record<string, string> = {};
  let ownRegions = 0;
  for (const c of countries) {
    if (!docs.has(c.code)) continue;
    for (const s of c.subdivisions) regions[s.code] = c.code;
  }
  for (const [code, fact] of Object.entries(power.regions).sort()) {
    const country = docs.get(code.slice(0, 2));
    if (!country || !(code in regions)) throw new Error(`region override ${code} is not an ISO 3166-2 code of a country with travel data`);
    docs.set(code, {
      ...country,
      destination: code,
      power: { frequency: (fact.frequency ?? country.power.frequency) as Hz, plugs: fact.plugs ?? country.power.plugs, voltage: fact.voltage ?? country.power.voltage },
      // Climate comes from the capital's station: it does not describe another region.
      sources: { ...country.sources, power: fact.source, climate: null },
    });
    delete regions[code];
    ownRegions++;
  }

  for (const [code, doc] of docs) files.set(`travel/${code}.json`, doc);
  for (const [code, normals] of Object.entries(climate)) if (docs.has(code)) files.set(`travel/climate/${code}.json`, normals);
  const index: TravelIndex = {
    destinations: [...docs.keys()].sort(),
    regions,
    no_travel_data: [...missingOf].map(([code, missing]) => ({ code, missing })).sort((a, b) => (a.code < b.code ? -1 : 1)),
    coverage: { countries: countries.length, with_document: countries.filter((c) => docs.has(c.code)).length, regions_with_own_document: ownRegions, fields },
  };
  files.set('travel/index.json', index);
  return files;
}

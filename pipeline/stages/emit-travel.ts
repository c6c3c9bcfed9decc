/**
 * Stage: one travel document per country with every spec fact, one per
 * region whose facts differ (Japan's frequency, Brazil's voltage), the
 * climate normals per destination (a country's at its capital, a region's
 * nearest its seat), and an index with the coverage report.
 *
 * The documents are the answers without `date`: climate and sources.climate
 * are null there (sources.climate is null whenever climate is), and
 * travel/index.json lists which codes have normals and why the others have none.
 */
import { MAX_REGION_DISTANCE_KM } from '../../lib/climate.js';
import type { ClimateNormals, ClimateNote, Country, TravelIndex, TravelInfo } from '../../lib/schema-types.js';
import type { FileMap } from './emit-business-days.js';
import type { RegionalClimate } from './ingest-climate.js';
import type { SeatReport } from './ingest-seats.js';

/** Mains frequency; the schema check after emit rejects anything but 50 and 60. */
type Hz = TravelInfo['power']['frequency'];
import type { IngestedPower } from './ingest-power.js';

export const TRAVEL_SCHEMA_ROUTES: [RegExp, string][] = [
  [/^travel\/index\.json$/, 'travel-index.schema.json'],
  [/^travel\/[A-Z]{2}(-[A-Z0-9]{1,3})?\.json$/, 'travel.schema.json'],
  [/^travel\/climate\/[A-Z]{2}(-[A-Z0-9]{1,3})?\.json$/, 'climate.schema.json'],
];

const REST_COUNTRIES = 'REST Countries (MPL-2.0)';

/** Regional climate and the seats behind it, for the region files and the coverage report. */
export interface TravelRegionInputs {
  regional: RegionalClimate;
  seats: SeatReport;
  /** The countries the coverage report breaks down, largest first. */
  largest: string[];
}

/** Why a country has no normals: it has no capital, or no reviewed station near it. */
function countryNote(c: Country): ClimateNote {
  return c.capital
    ? { reason: 'no_station_near_capital', message: `No reviewed WMO 1991-2020 station with usable normals serves ${c.capital.name}, the capital of ${c.name}.` }
    : { reason: 'no_capital', message: `${c.name} has no capital to take a climate station for.` };
}

export function emitTravel(
  countries: Country[],
  power: IngestedPower,
  climate: Record<string, ClimateNormals>,
  { regional, seats, largest }: TravelRegionInputs = { regional: { normals: {}, notes: {} }, seats: { seats: new Map(), missing: new Map(), methods: { override: 0, admin1: 0, department: 0, name: 0 } }, largest: [] },
): FileMap {
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
        climate: null, // the answer without date has no climate, so no climate source
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
      sources: { ...country.sources, power: fact.source },
    });
    delete regions[code];
    ownRegions++;
  }

  for (const [code, doc] of docs) files.set(`travel/${code}.json`, doc);
  for (const [code, normals] of Object.entries(climate)) if (docs.has(code)) files.set(`travel/climate/${code}.json`, normals);

  // Regions of countries with travel facts: normals from the station nearest the seat, or why there are none.
  const notes: Record<string, ClimateNote> = {};
  for (const c of countries) if (docs.has(c.code) && !climate[c.code]) notes[c.code] = countryNote(c);
  const regionCodes = countries.filter((c) => docs.has(c.code)).flatMap((c) => c.subdivisions.map((s) => s.code));
  for (const code of regionCodes) {
    const normals = regional.normals[code];
    if (normals) files.set(`travel/climate/${code}.json`, normals);
    else notes[code] = regional.notes[code] ?? { reason: 'no_seat', message: `The seat of ${code} is not known to our sources, so no station can be chosen.` };
  }
  const withClimate = [...files.keys()].filter((p) => p.startsWith('travel/climate/')).map((p) => p.slice('travel/climate/'.length, -'.json'.length));

  const seatCount = (list: { seat: unknown }[]) => list.filter((s) => s.seat).length;
  const index: TravelIndex = {
    destinations: [...docs.keys()].sort(),
    regions,
    no_travel_data: [...missingOf].map(([code, missing]) => ({ code, missing })).sort((a, b) => (a.code < b.code ? -1 : 1)),
    climate: withClimate.sort(),
    climate_notes: Object.fromEntries(Object.entries(notes).sort(([a], [b]) => (a < b ? -1 : 1))),
    coverage: {
      countries: countries.length,
      with_document: countries.filter((c) => docs.has(c.code)).length,
      regions_with_own_document: ownRegions,
      fields,
      seats: {
        subdivisions: seats.seats.size,
        with_seat: [...seats.seats.values()].filter(Boolean).length,
        by_method: seats.methods,
        without_seat: [...seats.missing].map(([code, reason]) => ({ code, reason })),
      },
      regional_climate: {
        max_distance_km: MAX_REGION_DISTANCE_KM,
        regions: regionCodes.length,
        with_seat: regionCodes.filter((code) => seats.seats.get(code)).length,
        with_station: regionCodes.filter((code) => regional.normals[code]).length,
      },
      largest_countries: largest.map((code) => {
        const subs = countries.find((c) => c.code === code)?.subdivisions ?? [];
        return { country: code, subdivisions: subs.length, with_seat: seatCount(subs), with_station: subs.filter((s) => regional.normals[s.code] && docs.has(code)).length };
      }),
    },
  };
  files.set('travel/index.json', index);
  return files;
}

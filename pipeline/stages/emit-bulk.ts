/**
 * Stage: the bulk tables (dist-data/v1/bulk/): one CSV per table (UTF-8, header row, RFC 4180: CRLF, quotes
 * doubled), a Frictionless Data Package v2 descriptor (datapackage.json) and gzipped copies of the large ones.
 * The rows are read from the validated JSON documents of this same build, so a table cannot disagree with the
 * files; each column that mirrors a JSON property takes its type, description, enum and pattern from schemas/
 * (bulk-fields.ts). Every CSV is parsed back and checked against its Table Schema (columns, types, required
 * fields, keys) with ajv before anything is published: fails closed.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type {
  AstronomyPlaces, Attribution, BusinessDaysLocation, BusinessDaysLocations, BusinessDaysYear, ClimateNormals,
  CountriesIndex, TimezonesIndex, TimezoneZone, TravelIndex, TravelInfo,
} from '../../lib/schema-types.js';
import { climateSourceText } from '../../lib/climate.js';
import { columnsOf, mirrorField, ownField, type BulkField } from './bulk-fields.js';
import type { FileMap } from './emit-business-days.js';
import { createAjv } from './validate.js';

export type { BulkField } from './bulk-fields.js';

/** A cell as the JSON files have it; lists are written comma-separated, null and '' as an empty field. */
export type Cell = string | number | boolean | null | readonly string[];

export interface BulkTable {
  name: string;
  title: string;
  description: string;
  fields: BulkField[];
  primaryKey: string[];
  foreignKeys: { fields: string[]; reference: { resource: string; fields: string[] } }[];
  rows: Cell[][];
}

/** Tables larger than this also ship gzipped. */
export const GZIP_OVER = 64 * 1024;
const LIST_DELIMITER = ',';
const DAY_TYPE = mirrorField('defs.schema.json', 'type', '$defs.DayType', { description: 'Day type.' });
const DAY_TYPES = DAY_TYPE.enum as readonly (keyof BusinessDaysLocation['day_types'])[];
const MONTHS = mirrorField('climate.schema.json', 'month_name', '$defs.ClimateMonth.month', { description: 'English month name.' }).enum as readonly string[];

// The JSON Schemas whose documents the tables flatten.
const place = columnsOf('business-days-location.schema.json');
const year = columnsOf('business-days-year.schema.json');
const zone = columnsOf('timezone-zone.schema.json');
const zones = columnsOf('timezones-index.schema.json');
const country = columnsOf('country.schema.json');
const travel = columnsOf('travel.schema.json');
const travelIndex = columnsOf('travel-index.schema.json');
const climate = columnsOf('climate.schema.json');
const astronomy = columnsOf('astronomy-places.schema.json');

function get<T>(files: FileMap, path: string): T {
  const doc = files.get(path);
  if (doc === undefined) throw new Error(`bulk tables: ${path} is not in this build`);
  return doc as T;
}

/** The business-day tables: locations, workweeks, day-type rules, location-years and their sources, holidays, working days. */
function businessDayTables(files: FileMap): BulkTable[] {
  const list = get<BusinessDaysLocations>(files, 'business-days/index.json');
  const locations: Cell[][] = [], workweeks: Cell[][] = [], rules: Cell[][] = [], years: Cell[][] = [], sources: Cell[][] = [];
  const holidays: Cell[][] = [], working: Cell[][] = [];
  for (const { location: code } of list.locations) {
    const meta = get<BusinessDaysLocation>(files, `business-days/${code}/index.json`);
    locations.push([code, meta.name, meta.kind, meta.country, meta.parent, meta.timezone, meta.local_language, meta.range.start, meta.range.end]);
    meta.workweeks.forEach((w, i) => workweeks.push([code, i + 1, w.from, w.until, w.workweek, w.source]));
    for (const type of DAY_TYPES) rules.push([code, type, meta.day_types[type].data, meta.day_types[type].basis]);
    for (const y of meta.years) {
      const doc = get<BusinessDaysYear>(files, `business-days/${code}/${y}.json`);
      years.push([code, y, doc.basis]);
      doc.sources.forEach((s, i) => sources.push([code, y, i + 1, s.title, s.number, s.date, s.url, s.id, s.issuer, s.archive_url]));
      for (const h of doc.holidays) {
        holidays.push([code, h.date, h.type, h.name, h.local_name, h.closes, h.substitute, h.observed_for, h.transferred, h.transferred_from,
          h.partial, h.start_time ?? null, h.end_time ?? null, h.basis, h.citations]);
      }
      for (const w of doc.working_days) working.push([code, w.date, w.name, w.local_name, w.for_holiday, w.for_date, w.applies_to, w.citations]);
    }
  }
  const toLocation = { fields: ['location'], reference: { resource: 'locations', fields: ['location'] } };
  return [
    {
      name: 'locations', title: 'Business-day locations', description: 'Every location with business-day data: countries, ISO 3166-2 states and date-holidays regions (business-days/index.json and each business-days/{LOCATION}/index.json).',
      fields: [
        place('location', 'location'),
        place('name', 'name', { description: 'English name.' }),
        place('kind', 'kind', { description: 'country, state or region.' }),
        place('country', 'country', { description: 'ISO 3166-1 alpha-2 code of the country.' }),
        place('parent', 'parent', { description: 'The enclosing location (a region\'s state, a state\'s country); empty for a country.' }),
        place('timezone', 'timezone'),
        place('local_language', 'local_language', { description: 'Language of local_name in holidays.' }),
        place('range_start', 'range.start', { description: 'First date served.' }),
        place('range_end', 'range.end', { description: 'Last date served.' }),
      ],
      primaryKey: ['location'], foreignKeys: [{ fields: ['parent'], reference: { resource: 'locations', fields: ['location'] } }], rows: locations,
    },
    {
      name: 'workweeks', title: 'Workweeks by period', description: 'The working weekdays of each location, by period: a date is inside the workweek when its weekday is listed in the period that contains it.',
      fields: [
        place('location', 'location'),
        ownField('period', 'integer', 'Order of the period within the location, from 1.', true),
        place('from', 'workweeks[].from', { description: 'First date of the period; empty: since always.' }),
        place('until', 'workweeks[].until', { description: 'Last date of the period; empty: still in force.' }),
        // The schema's Workweek may be empty; no period of ours is.
        place('workweek', 'workweeks[].workweek', { required: true }),
        place('source', 'workweeks[].source', { description: 'Where the workweek comes from.' }),
      ],
      primaryKey: ['location', 'period'], foreignKeys: [toLocation], rows: workweeks,
    },
    {
      name: 'day_type_rules', title: 'Day types per location', description: 'For each location and day type (business, banking, government): whether the type has data of its own or equals business, and what it is made of (each location\'s day_types).',
      fields: [
        place('location', 'location'),
        DAY_TYPE,
        place('data', '$defs.DayTypeCoverage.data'),
        place('basis', '$defs.DayTypeCoverage.basis'),
      ],
      primaryKey: ['location', 'type'], foreignKeys: [toLocation], rows: rules,
    },
    {
      name: 'location_years', title: 'Basis per location-year', description: 'official when the year\'s days off and working days come from a published government schedule (cited in location_year_sources); rules when they are projected from date-holidays\' rules.',
      fields: [year('location', 'location'), year('year', 'year', { description: 'Calendar year.' }), year('basis', 'basis')],
      primaryKey: ['location', 'year'], foreignKeys: [toLocation], rows: years,
    },
    {
      name: 'location_year_sources', title: 'Sources of each location-year', description: 'The official acts behind a location-year\'s official rows (the year file\'s sources, in order); holidays.citations and working_days.citations name them by id.',
      fields: [
        year('location', 'location'), year('year', 'year', { description: 'Calendar year.' }),
        ownField('seq', 'integer', 'Order within the year\'s sources, from 1.', true),
        year('title', 'sources[].title', { description: 'Title of the act, notice or data set.' }),
        year('number', 'sources[].number'),
        year('date', 'sources[].date'),
        year('url', 'sources[].url', { description: 'Where to read it.' }),
        year('id', 'sources[].id'),
        year('issuer', 'sources[].issuer'),
        year('archive_url', 'sources[].archive_url'),
      ],
      primaryKey: ['location', 'year', 'seq'], foreignKeys: [{ fields: ['location', 'year'], reference: { resource: 'location_years', fields: ['location', 'year'] } }], rows: sources,
    },
    {
      name: 'holidays', title: 'Holidays', description: 'Every holiday of every location and year, one row per location, date and holiday (multi-day holidays once per day), with every field of the year files. A date is closed for a day type when a holiday on it lists that type in closes.',
      fields: [
        year('location', 'location'),
        year('date', 'holidays[].date', { description: 'Local calendar date.' }),
        year('type', 'holidays[].type'),
        year('name', 'holidays[].name'),
        year('local_name', 'holidays[].local_name'),
        year('closes', 'holidays[].closes'),
        year('substitute', 'holidays[].substitute'),
        year('observed_for', 'holidays[].observed_for'),
        year('transferred', 'holidays[].transferred'),
        year('transferred_from', 'holidays[].transferred_from'),
        year('partial', 'holidays[].partial'),
        year('start_time', 'holidays[].start_time'),
        year('end_time', 'holidays[].end_time'),
        year('basis', 'holidays[].basis'),
        year('citations', 'holidays[].citations'),
      ],
      primaryKey: ['location', 'date', 'type', 'name'], foreignKeys: [toLocation], rows: holidays,
    },
    {
      name: 'working_days', title: 'Working days outside the workweek', description: 'Dates outside the workweek that are working days (China\'s make-up days, Russia\'s working Saturdays): a business day for the types in applies_to.',
      fields: [
        year('location', 'location'),
        year('date', 'working_days[].date', { description: 'Local calendar date.' }),
        year('name', 'working_days[].name'),
        year('local_name', 'working_days[].local_name'),
        year('for_holiday', 'working_days[].for_holiday'),
        year('for_date', 'working_days[].for_date'),
        year('applies_to', 'working_days[].applies_to'),
        year('citations', 'working_days[].citations'),
      ],
      primaryKey: ['location', 'date'], foreignKeys: [toLocation], rows: working,
    },
  ];
}

function timezoneTables(files: FileMap): BulkTable[] {
  const index = get<TimezonesIndex>(files, 'timezones/index.json');
  const zoneRows: Cell[][] = [], transitions: Cell[][] = [];
  for (const { id } of index.zones) {
    const z = get<TimezoneZone>(files, `timezones/zones/${id}.json`);
    zoneRows.push([z.id, z.name, z.country ?? null, z.comment, z.standard_offset, z.standard_offset_minutes, z.initial.offset, z.initial.offset_minutes,
      z.initial.abbreviation, z.initial.is_dst, z.window.start, z.window.end, z.tzdata_version]);
    for (const t of z.transitions) transitions.push([z.id, t.at, t.offset, t.offset_minutes, t.abbreviation, t.is_dst]);
  }
  const aliases = Object.entries(index.aliases).map(([alias, canonical]): Cell[] => [alias, canonical]);
  const toZone = (field: string) => ({ fields: [field], reference: { resource: 'timezones', fields: ['id'] } });
  const sameInMinutes = { description: 'The same in minutes.' };
  return [
    {
      name: 'timezones', title: 'Time zones', description: 'Canonical IANA zones with their state at the start of the window (timezones/zones/{id}.json without the transitions).',
      fields: [
        zone('id', 'id'), zone('name', 'name', { description: 'Generic English name.' }),
        zone('country', 'country'),
        zone('comment', 'comment'),
        zone('standard_offset', 'standard_offset', { description: 'Standard offset under the latest rules, +HH:MM.' }),
        zone('standard_offset_minutes', 'standard_offset_minutes'),
        zone('initial_offset', 'initial.offset', { description: 'Offset in force at window_start.' }),
        zone('initial_offset_minutes', 'initial.offset_minutes', sameInMinutes),
        zone('initial_abbreviation', 'initial.abbreviation', { description: 'Abbreviation in force at window_start.' }),
        zone('initial_is_dst', 'initial.is_dst'),
        zone('window_start', 'window.start', { description: 'First instant covered by zone_transitions (UTC).' }),
        zone('window_end', 'window.end', { description: 'End of the covered window (UTC).' }),
        zone('tzdata_version', 'tzdata_version', { description: 'tz database release.' }),
      ],
      primaryKey: ['id'], foreignKeys: [], rows: zoneRows,
    },
    {
      name: 'timezone_aliases', title: 'Time zone aliases', description: 'Backward-compatible IANA names (links) and the canonical zone each stands for.',
      fields: [ownField('alias', 'string', 'Alias (tzdata link name).', true), zones('zone', 'aliases{}', { description: 'Canonical zone id.' })],
      primaryKey: ['alias'], foreignKeys: [toZone('zone')], rows: aliases,
    },
    {
      name: 'zone_transitions', title: 'Zone transitions', description: 'Every offset change of every zone inside the window: the offset in force at an instant is that of the last transition at or before it, else the zone\'s initial state.',
      fields: [
        zone('zone', 'id'), zone('at', 'transitions[].at', { description: 'Instant of the change (UTC).' }),
        zone('offset', 'transitions[].offset', { description: 'UTC offset from then on, +HH:MM.' }),
        zone('offset_minutes', 'transitions[].offset_minutes', sameInMinutes),
        zone('abbreviation', 'transitions[].abbreviation', { description: 'Abbreviation from then on.' }),
        zone('is_dst', 'transitions[].is_dst', { description: 'tzdata\'s daylight-saving flag.' }),
      ],
      primaryKey: ['zone', 'at'], foreignKeys: [toZone('zone')], rows: transitions,
    },
  ];
}

function countryTables(files: FileMap): BulkTable[] {
  const { countries } = get<CountriesIndex>(files, 'countries/index.json');
  const rows: Cell[][] = [], currencies: Cell[][] = [], languages: Cell[][] = [], subdivisions: Cell[][] = [];
  for (const c of countries) {
    rows.push([c.code, c.alpha3, c.numeric, c.name, c.official_name, c.continent, c.capital?.name ?? null, c.capital?.latitude ?? null, c.capital?.longitude ?? null,
      c.primary_currency, c.primary_language, c.cctld, c.phone_code, c.driving_side, c.workweek, c.timezones, c.neighbors]);
    c.currencies.forEach((x, i) => currencies.push([c.code, i + 1, x.code, x.name, x.symbol]));
    c.languages.forEach((x, i) => languages.push([c.code, i + 1, x.code, x.name]));
    for (const s of c.subdivisions) subdivisions.push([s.code, c.code, s.name, s.local_name, s.type]);
  }
  const toCountry = { fields: ['country'], reference: { resource: 'countries', fields: ['code'] } };
  const seq = ownField('seq', 'integer', 'Order, from 1 (primary first).', true);
  return [
    {
      name: 'countries', title: 'Countries', description: 'ISO 3166-1 countries (countries/{CODE}.json without links, currencies, languages and subdivisions, which have tables of their own).',
      fields: [
        country('code', 'code'), country('alpha3', 'alpha3'), country('numeric', 'numeric'),
        country('name', 'name'), country('official_name', 'official_name'), country('continent', 'continent'),
        country('capital', 'capital.name', { description: 'Capital (seat of government where there are several).' }),
        country('capital_latitude', 'capital.latitude', { description: 'Latitude of the capital, degrees.' }),
        country('capital_longitude', 'capital.longitude', { description: 'Longitude of the capital, degrees.' }),
        country('primary_currency', 'primary_currency'), country('primary_language', 'primary_language'), country('cctld', 'cctld'),
        country('phone_code', 'phone_code'), country('driving_side', 'driving_side', { description: 'left or right.' }),
        country('workweek', 'workweek'), country('timezones', 'timezones'), country('neighbors', 'neighbors'),
      ],
      primaryKey: ['code'], foreignKeys: [], rows,
    },
    {
      name: 'country_currencies', title: 'Currencies per country', description: 'ISO 4217 currencies that are legal tender, the primary one first.',
      fields: [country('country', 'code'), seq, country('code', 'currencies[].code'), country('name', 'currencies[].name'), country('symbol', 'currencies[].symbol', { description: 'Symbol.' })],
      primaryKey: ['country', 'code'], foreignKeys: [toCountry], rows: currencies,
    },
    {
      name: 'country_languages', title: 'Languages per country', description: 'Official and national languages, the primary one first.',
      fields: [country('country', 'code'), seq, country('code', 'languages[].code'), country('name', 'languages[].name')],
      primaryKey: ['country', 'code'], foreignKeys: [toCountry], rows: languages,
    },
    {
      name: 'subdivisions', title: 'Subdivisions', description: 'Every ISO 3166-2 subdivision, all levels.',
      fields: [country('code', 'subdivisions[].code'), country('country', 'code'), country('name', 'subdivisions[].name'), country('local_name', 'subdivisions[].local_name'), country('type', 'subdivisions[].type')],
      primaryKey: ['code'], foreignKeys: [toCountry], rows: subdivisions,
    },
    seatTable(files, countries),
  ];
}

/** One row per ISO 3166-2 subdivision: its seat (countries/{CODE}.json subdivisions[].seat), or why it has none (travel/index.json). */
function seatTable(files: FileMap, countries: CountriesIndex['countries']): BulkTable {
  const report = (get<TravelIndex>(files, 'travel/index.json') as Partial<TravelIndex>).coverage?.seats.without_seat ?? [];
  const why = new Map(report.map((w) => [w.code, w.reason]));
  const rows: Cell[][] = [];
  for (const c of countries) {
    for (const { code, seat } of c.subdivisions) {
      rows.push([code, c.code, seat?.name ?? null, seat?.latitude ?? null, seat?.longitude ?? null, seat?.geonames_id ?? null, seat?.timezone ?? null, seat?.source ?? null, seat ? null : (why.get(code) ?? 'unknown')]);
    }
  }
  const degrees = { description: 'Degrees.' };
  return {
    name: 'subdivision_seats', title: 'Seats of subdivisions', description: 'The administrative seat of each ISO 3166-2 subdivision (GeoNames place, CC BY 4.0, joined as sources/seats/SOURCE.md describes) with the IANA zone at the seat; a subdivision without a known seat has empty seat columns and the reason.',
    fields: [
      country('code', 'subdivisions[].code'), country('country', 'code'),
      country('seat', 'subdivisions[].seat.name'), country('latitude', 'subdivisions[].seat.latitude', degrees), country('longitude', 'subdivisions[].seat.longitude', degrees),
      country('geonames_id', 'subdivisions[].seat.geonames_id'), country('timezone', 'subdivisions[].seat.timezone'), country('source', 'subdivisions[].seat.source'),
      // Every subdivision has a row: the reason is empty where there is a seat.
      travelIndex('missing_reason', 'coverage.seats.without_seat[].reason', { description: 'Why there is no seat; empty when there is one.', required: false }),
    ],
    primaryKey: ['code'],
    foreignKeys: [{ fields: ['code'], reference: { resource: 'subdivisions', fields: ['code'] } }, { fields: ['timezone'], reference: { resource: 'timezones', fields: ['id'] } }],
    rows,
  };
}

function travelTables(files: FileMap): BulkTable[] {
  const index = get<TravelIndex>(files, 'travel/index.json');
  const travelRows: Cell[][] = [], stations: Cell[][] = [], normals: Cell[][] = [];
  for (const code of index.destinations) {
    const t = get<TravelInfo>(files, `travel/${code}.json`);
    const normalsDoc = files.get(`travel/climate/${code}.json`) as ClimateNormals | undefined;
    // The documents hold no climate source (they answer without date); the column names the station a dated answer cites.
    travelRows.push([t.destination, t.country, t.driving_side, t.phone_code, t.emergency.police, t.emergency.ambulance, t.emergency.fire, t.power.voltage,
      t.power.frequency, t.power.plugs, t.sources.power, t.sources.emergency, t.sources.phone_code, t.sources.driving_side, normalsDoc ? climateSourceText(normalsDoc.station) : null]);
    if (!normalsDoc) continue;
    const s = normalsDoc.station;
    stations.push([code, s.wmo_id, s.name, s.country, s.latitude, s.longitude, s.distance_km, s.period]);
    normalsDoc.months.forEach((m) => normals.push([code, MONTHS.indexOf(m.month) + 1, s.wmo_id, m.month, m.temp_high_c, m.temp_low_c, m.precipitation_mm,
      m.precipitation_days, m.humidity_percent, m.humidity_derived, m.cloud_cover_percent, m.sunshine_hours, m.wind_speed_kmh]));
  }
  const { places } = get<AstronomyPlaces>(files, 'astronomy/places.json');
  // Countries only: a region's place is its seat, in subdivision_seats.
  const astronomyRows = Object.entries(places).filter(([code]) => code.length === 2).map(([code, p]): Cell[] => [code, p.name, p.latitude, p.longitude, p.timezone]);
  const toDestination = { fields: ['destination'], reference: { resource: 'travel', fields: ['destination'] } };
  const unreported = (d: string) => ({ description: `${d}; empty when the station does not report it.` });
  // The schema allows an empty source text; every row of ours names one.
  const source = (name: string, path: string, what: string) => travel(name, path, { description: `Source of the ${what}.`, required: true });
  const degrees = { description: 'Degrees.' };
  const destination = travelIndex('destination', 'climate[]', { description: 'Travel destination.' });
  return [
    {
      name: 'travel', title: 'Travel facts', description: 'Travel facts per destination (countries, and regions whose facts differ; other ISO 3166-2 codes answer with their country\'s row).',
      fields: [
        travel('destination', 'destination', { description: 'Country or region code.' }), travel('country', 'country'),
        travel('driving_side', 'driving_side', { description: 'left or right.' }), travel('phone_code', 'phone_code'),
        travel('emergency_police', 'emergency.police'), travel('emergency_ambulance', 'emergency.ambulance'), travel('emergency_fire', 'emergency.fire'),
        travel('voltage', 'power.voltage', { description: 'Mains voltage, volts.' }), travel('frequency', 'power.frequency', { description: 'Mains frequency, hertz.' }),
        travel('plugs', 'power.plugs', { description: 'Plug types (IEC letters), comma-separated.' }),
        source('source_power', 'sources.power', 'power facts'), source('source_emergency', 'sources.emergency', 'emergency numbers'),
        source('source_phone_code', 'sources.phone_code', 'calling code'), source('source_driving_side', 'sources.driving_side', 'driving side'),
        ownField('source_climate', 'string', 'Climate station used for the destination; empty when none.'),
      ],
      primaryKey: ['destination'], foreignKeys: [], rows: travelRows,
    },
    {
      name: 'climate_stations', title: 'Climate stations', description: 'The WMO station whose 1991-2020 normals describe each destination (nearest its capital or principal city).',
      fields: [
        destination, climate('wmo_id', 'station.wmo_id'), climate('name', 'station.name', { description: 'Station name.' }),
        climate('country', 'station.country'), climate('latitude', 'station.latitude', degrees), climate('longitude', 'station.longitude', degrees),
        climate('distance_km', 'station.distance_km'), climate('period', 'station.period', { description: 'Normals period.' }),
      ],
      primaryKey: ['destination'], foreignKeys: [toDestination], rows: stations,
    },
    {
      name: 'climate_normals', title: 'Climate normals per station and month', description: 'WMO Climatological Standard Normals 1991-2020, one row per destination\'s station and month. A value the station does not report is empty, never invented.',
      fields: [
        destination, ownField('month', 'integer', 'Month number, 1-12.', true), climate('wmo_id', 'station.wmo_id'),
        climate('month_name', 'months[].month', { description: 'English month name.' }),
        climate('temp_high_c', 'months[].temp_high_c'), climate('temp_low_c', 'months[].temp_low_c'), climate('precipitation_mm', 'months[].precipitation_mm'),
        climate('precipitation_days', 'months[].precipitation_days'), climate('humidity_percent', 'months[].humidity_percent'),
        climate('humidity_derived', 'months[].humidity_derived', { description: 'Humidity derived from vapour pressure and temperature (Magnus formula).' }),
        climate('cloud_cover_percent', 'months[].cloud_cover_percent', unreported('Mean cloud cover')), climate('sunshine_hours', 'months[].sunshine_hours'),
        climate('wind_speed_kmh', 'months[].wind_speed_kmh', unreported('Mean wind speed, km/h')),
      ],
      primaryKey: ['destination', 'month'], foreignKeys: [{ fields: ['destination'], reference: { resource: 'climate_stations', fields: ['destination'] } }], rows: normals,
    },
    {
      name: 'astronomy_places', title: 'Astronomy places', description: 'The place each country code stands for in the astronomy area (its capital) and that place\'s zone.',
      fields: [
        ownField('code', 'string', 'ISO 3166-1 alpha-2.', true), astronomy('name', 'places{}.name', { description: 'Place name.' }),
        astronomy('latitude', 'places{}.latitude', degrees), astronomy('longitude', 'places{}.longitude', degrees), astronomy('timezone', 'places{}.timezone'),
      ],
      primaryKey: ['code'], foreignKeys: [{ fields: ['code'], reference: { resource: 'countries', fields: ['code'] } }, { fields: ['timezone'], reference: { resource: 'timezones', fields: ['id'] } }],
      rows: astronomyRows,
    },
  ];
}

/** Compares two rows by the primary key columns (numbers numerically, text by code point). */
function keyComparator(table: BulkTable): (a: Cell[], b: Cell[]) => number {
  const idx = table.primaryKey.map((k) => table.fields.findIndex((x) => x.name === k));
  return (a, b) => {
    for (const i of idx) {
      const x = a[i], y = b[i];
      if (x === y) continue;
      if (typeof x === 'number' && typeof y === 'number') return x - y;
      return String(x) < String(y) ? -1 : 1;
    }
    return 0;
  };
}

/** Every table, rows sorted by primary key, '' normalised to null (CSV cannot tell them apart). */
export function buildTables(files: FileMap): BulkTable[] {
  const tables = [...businessDayTables(files), ...timezoneTables(files), ...countryTables(files), ...travelTables(files)];
  for (const t of tables) {
    t.rows = t.rows.map((r) => r.map((c) => (c === '' || (Array.isArray(c) && c.length === 0) ? null : c)));
    t.rows.sort(keyComparator(t));
  }
  return tables;
}

/** One cell as CSV text (RFC 4180): quoted when it holds a quote, comma, CR or LF. */
export function csvCell(c: Cell): string {
  if (c === null) return '';
  const s = Array.isArray(c) ? c.join(LIST_DELIMITER) : String(c);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(table: BulkTable): string {
  const lines = [table.fields.map((x) => x.name).join(',')];
  for (const r of table.rows) lines.push(r.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** gzip with no name and no timestamp; the header's OS byte is set to 255 (unknown) so every platform gives the same bytes. */
export function gzipDeterministic(data: string | Uint8Array): Buffer {
  const gz = gzipSync(data, { level: 9 });
  gz[9] = 0xff;
  return gz;
}

/** How each Table Schema type is written in a cell (its default format); '' is a missing value, never checked. */
const LEXICAL: Record<BulkField['type'], object> = {
  string: { type: 'string' },
  list: { type: 'string' },
  integer: { type: 'string', pattern: '^-?\\d+$' },
  number: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?$' },
  boolean: { type: 'string', enum: ['true', 'false'] },
  date: { type: 'string', format: 'date' },
  datetime: { type: 'string', format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$' },
};

const constraints = (values: readonly (string | number)[] | undefined, pattern: string | undefined) => ({
  type: 'string',
  ...(values ? { enum: values.map(String) } : {}),
  ...(pattern ? { pattern } : {}),
});

/**
 * The JSON Schema a CSV record of `table` must satisfy, from its Table Schema fields: the record as an object of
 * its non-empty cells (lists split on the delimiter), each cell its type's lexical form (allOf/0) and its
 * constraints (allOf/1), required fields and primary-key fields present.
 */
export function rowSchema(table: BulkTable): object {
  const cell = (x: BulkField) =>
    x.type === 'list'
      ? { type: 'array', items: { allOf: [{ type: 'string', minLength: 1 }, constraints(x.itemEnum, x.itemPattern)] } }
      : { allOf: [LEXICAL[x.type], constraints(x.enum, x.pattern)] };
  return {
    type: 'object',
    properties: Object.fromEntries(table.fields.map((x) => [x.name, cell(x)])),
    required: table.fields.filter((x) => x.required || table.primaryKey.includes(x.name)).map((x) => x.name),
    additionalProperties: false,
  };
}

/** One ajv error as "column "value" problem". */
function problemText(e: ErrorObject, record: Record<string, string | string[]>, fields: Map<string, BulkField>): string {
  if (e.keyword === 'required') return `${(e.params as { missingProperty: string }).missingProperty} is required`;
  const [column, item] = e.instancePath.split('/').slice(1);
  const cell = record[column];
  const value = JSON.stringify(item === undefined ? cell : (cell as string[])[Number(item)]);
  const field = fields.get(column)!;
  if (/\/allOf\/0\//.test(e.schemaPath)) {
    if (field.type === 'list') return `${column} ${JSON.stringify((cell as string[]).join(LIST_DELIMITER))} has an empty item`;
    return `${column} ${value} is not ${/^[aeiou]/.test(field.type) ? 'an' : 'a'} ${field.type}`;
  }
  if (e.keyword === 'enum') return `${column} ${value} is not one of ${(e.params as { allowedValues: string[] }).allowedValues.join(', ')}`;
  if (e.keyword === 'pattern') return `${column} ${value} does not match ${(e.params as { pattern: string }).pattern}`;
  return `${column} ${value} ${e.message}`;
}

let ajv: ReturnType<typeof createAjv> | undefined;
const rowValidator = (table: BulkTable): ValidateFunction => (ajv ??= createAjv()).compile(rowSchema(table));

/**
 * Parses a table's CSV back (an independent parser: csv-parse) and checks it against its Table Schema: header,
 * column count, each record against rowSchema with ajv (types, required fields, enums and patterns), unique
 * primary keys, foreign keys into `all`. Throws naming the table, line and column of the first problems.
 */
export function validateCsv(table: BulkTable, csv: string, all: Map<string, BulkTable>): number {
  const records = parse(csv, { relax_column_count: true, record_delimiter: '\r\n' }) as string[][];
  const problems: string[] = [];
  const names = table.fields.map((x) => x.name);
  const fields = new Map(table.fields.map((x) => [x.name, x]));
  if (records[0]?.join(',') !== names.join(',')) problems.push(`header is ${records[0]?.join(',')}, expected ${names.join(',')}`);
  const keys = new Set<string>();
  const pk = table.primaryKey.map((k) => names.indexOf(k));
  const validate = rowValidator(table);
  for (let n = 1; n < records.length && problems.length < 10; n++) {
    const rec = records[n];
    const at = `line ${n + 1}`;
    if (rec.length !== names.length) {
      problems.push(`${at}: ${rec.length} columns, expected ${names.length}`);
      continue;
    }
    const record: Record<string, string | string[]> = {};
    for (let i = 0; i < rec.length; i++) {
      if (rec[i] !== '') record[names[i]] = table.fields[i].type === 'list' ? rec[i].split(LIST_DELIMITER) : rec[i];
    }
    if (!validate(record)) for (const text of new Set(validate.errors!.map((e) => problemText(e, record, fields)))) problems.push(`${at}: ${text}`);
    const key = pk.map((i) => rec[i]).join('\u0000');
    if (keys.has(key)) problems.push(`${at}: duplicate primary key (${table.primaryKey.join(', ')}) = ${pk.map((i) => rec[i]).join(', ')}`);
    keys.add(key);
  }
  for (const fk of table.foreignKeys) {
    const target = all.get(fk.reference.resource)!;
    const tIdx = fk.reference.fields.map((k) => target.fields.findIndex((x) => x.name === k));
    const known = new Set(target.rows.map((r) => tIdx.map((i) => String(r[i])).join('\u0000')));
    const sIdx = fk.fields.map((k) => names.indexOf(k));
    for (const r of table.rows) {
      if (sIdx.some((i) => r[i] === null)) continue;
      const key = sIdx.map((i) => String(r[i])).join('\u0000');
      if (!known.has(key)) {
        problems.push(`foreign key ${fk.fields.join(',')} = ${key.replace(/\u0000/g, ',')} is not in ${fk.reference.resource}`);
        break;
      }
    }
  }
  if (records.length - 1 !== table.rows.length) problems.push(`${records.length - 1} rows read back, ${table.rows.length} written`);
  if (problems.length) throw new Error(`bulk/${table.name}.csv does not match its Table Schema:\n  ${problems.slice(0, 10).join('\n  ')}`);
  return table.rows.length;
}

const PROFILE = 'https://datapackage.org/profiles/2.0';

function tableSchema(t: BulkTable) {
  return {
    $schema: `${PROFILE}/tableschema.json`,
    fields: t.fields.map((x) => ({
      name: x.name,
      type: x.type,
      description: x.description,
      ...(x.type === 'list' ? { delimiter: LIST_DELIMITER, itemType: 'string' } : {}),
      ...(x.type === 'boolean' ? { trueValues: ['true'], falseValues: ['false'] } : {}),
      ...(x.required || x.enum || x.pattern ? { constraints: { ...(x.required ? { required: true } : {}), ...(x.enum ? { enum: x.enum } : {}), ...(x.pattern ? { pattern: x.pattern } : {}) } } : {}),
    })),
    fieldsMatch: 'exact',
    missingValues: [''],
    primaryKey: t.primaryKey,
    ...(t.foreignKeys.length ? { foreignKeys: t.foreignKeys } : {}),
  };
}

const sha = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** A file's size and SHA-256, as a data package resource states them. */
export interface FileDigest {
  bytes: number;
  sha256: string;
}
export const fileDigest = (data: Uint8Array): FileDigest => ({ bytes: data.length, sha256: sha(data) });

/** The Frictionless Data Package v2 descriptor: a tabular resource per CSV, the SQLite file as a plain resource. */
export function dataPackage(tables: BulkTable[], csv: Map<string, string>, attribution: Attribution, sqlite?: FileDigest) {
  return {
    $schema: `${PROFILE}/datapackage.json`,
    name: 'refdata',
    title: 'refdata: business days, time zones, countries and travel facts',
    description:
      'The refdata dataset as tables: the same records as the JSON files of this dataset (built from the same in-memory documents in one build). ' +
      'Lists are comma-separated; an empty field is a missing value (null). Tables over 64 KiB also ship as {name}.csv.gz. ' +
      'refdata.sqlite holds the same tables with indexes and the view business_day_check (see README.md).',
    homepage: 'https://refdata.dev/',
    licenses: [{ name: 'CC-BY-SA-3.0', path: 'https://creativecommons.org/licenses/by-sa/3.0/', title: 'Creative Commons Attribution-ShareAlike 3.0 (inherited from date-holidays)' }],
    dataset_license: attribution.dataset_license,
    sources: attribution.sources.map((s) => ({ title: s.name, path: s.url, version: s.version, license: s.license, attribution: s.attribution, used_for: s.used_for })),
    resources: [
      ...tables.map((t) => {
        const text = csv.get(t.name)!;
        return {
          $schema: `${PROFILE}/dataresource.json`,
          name: t.name,
          type: 'table',
          path: `${t.name}.csv`,
          title: t.title,
          description: t.description,
          format: 'csv',
          mediatype: 'text/csv',
          encoding: 'utf-8',
          bytes: Buffer.byteLength(text),
          hash: `sha256:${sha(text)}`,
          rows: t.rows.length,
          ...(Buffer.byteLength(text) > GZIP_OVER ? { gzipped_copy: `${t.name}.csv.gz` } : {}),
          dialect: { $schema: `${PROFILE}/tabledialect.json`, header: true, delimiter: ',', lineTerminator: '\r\n', quoteChar: '"', doubleQuote: true },
          schema: tableSchema(t),
        };
      }),
      ...(sqlite
        ? [{ $schema: `${PROFILE}/dataresource.json`, name: 'refdata-sqlite', path: 'refdata.sqlite', title: 'The same tables as one SQLite database', format: 'sqlite', mediatype: 'application/vnd.sqlite3', bytes: sqlite.bytes, hash: `sha256:${sqlite.sha256}` }]
        : []),
    ],
  };
}

/**
 * The files of bulk/ but the SQLite one, from the tables: {name}.csv for every table, {name}.csv.gz for those over
 * GZIP_OVER. Each CSV is validated against its Table Schema here.
 */
export function emitCsv(tables: BulkTable[], onTable: (name: string) => void = () => {}): { csv: Map<string, string>; files: Map<string, string | Buffer> } {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const csv = new Map<string, string>();
  const out = new Map<string, string | Buffer>();
  for (const t of tables) {
    onTable(t.name);
    const text = toCsv(t);
    validateCsv(t, text, byName);
    csv.set(t.name, text);
    out.set(`bulk/${t.name}.csv`, text);
    if (Buffer.byteLength(text) > GZIP_OVER) out.set(`bulk/${t.name}.csv.gz`, gzipDeterministic(text));
  }
  return { csv, files: out };
}

/** The tables and their CSV files (buildTables, then emitCsv). */
export function emitBulk(files: FileMap): { tables: BulkTable[]; csv: Map<string, string>; files: Map<string, string | Buffer> } {
  const tables = buildTables(files);
  return { tables, ...emitCsv(tables) };
}

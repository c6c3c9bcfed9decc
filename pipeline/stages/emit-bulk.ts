/**
 * Stage: the bulk tables (dist-data/v1/bulk/): one CSV per table (UTF-8, header row, RFC 4180: CRLF, quotes
 * doubled), a Frictionless Data Package v2 descriptor (datapackage.json) and gzipped copies of the large ones.
 * The rows are read from the validated JSON documents of this same build, so a table cannot disagree with the
 * files. Every CSV is parsed back and checked against its Table Schema (columns, types, required fields, keys)
 * before anything is published: fails closed.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import type {
  AstronomyPlaces, Attribution, BusinessDaysLocation, BusinessDaysLocations, BusinessDaysYear, ClimateNormals,
  CountriesIndex, TimezonesIndex, TimezoneZone, TravelIndex, TravelInfo,
} from '../../lib/schema-types.js';
import { climateSourceText } from '../../lib/climate.js';
import type { FileMap } from './emit-business-days.js';

/** A cell as the JSON files have it; lists are written comma-separated, null and '' as an empty field. */
export type Cell = string | number | boolean | null | readonly string[];

export interface BulkField {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'list';
  description: string;
  required?: boolean;
  enum?: readonly string[];
  pattern?: string;
  /** For lists: the values each item may take. */
  itemEnum?: readonly string[];
}

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
const DAY_TYPES = ['business', 'banking', 'government'] as const;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const f = (name: string, type: BulkField['type'], description: string, extra: Partial<BulkField> = {}): BulkField => ({ name, type, description, ...extra });
const req = { required: true } as const;
const location = f('location', 'string', 'Business-day location code (locations.location).', req);

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
    for (const year of meta.years) {
      const doc = get<BusinessDaysYear>(files, `business-days/${code}/${year}.json`);
      years.push([code, year, doc.basis]);
      doc.sources.forEach((s, i) => sources.push([code, year, i + 1, s.title, s.number, s.date, s.url]));
      for (const h of doc.holidays) {
        holidays.push([code, h.date, h.type, h.name, h.local_name, h.closes, h.substitute, h.observed_for, h.transferred, h.transferred_from,
          h.partial, h.start_time ?? null, h.end_time ?? null, h.basis]);
      }
      for (const w of doc.working_days) working.push([code, w.date, w.name, w.local_name, w.for_holiday, w.for_date, w.applies_to]);
    }
  }
  const toLocation = { fields: ['location'], reference: { resource: 'locations', fields: ['location'] } };
  const date = (d: string) => f('date', 'date', d, req);
  return [
    {
      name: 'locations', title: 'Business-day locations', description: 'Every location with business-day data: countries, ISO 3166-2 states and date-holidays regions (business-days/index.json and each business-days/{LOCATION}/index.json).',
      fields: [
        f('location', 'string', 'ISO 3166-1 alpha-2 code, ISO 3166-2 code, or COUNTRY-SUBDIVISION-REGION for date-holidays sub-regions.', req),
        f('name', 'string', 'English name.', req),
        f('kind', 'string', 'country, state or region.', { ...req, enum: ['country', 'state', 'region'] }),
        f('country', 'string', 'ISO 3166-1 alpha-2 code of the country.', { ...req, pattern: '^[A-Z]{2}$' }),
        f('parent', 'string', 'The enclosing location (a region\'s state, a state\'s country); empty for a country.'),
        f('timezone', 'string', 'IANA zone whose local date is "today" for this location (may be an alias: see timezone_aliases).', req),
        f('local_language', 'string', 'Language of local_name in holidays.', req),
        f('range_start', 'date', 'First date served.', req),
        f('range_end', 'date', 'Last date served.', req),
      ],
      primaryKey: ['location'], foreignKeys: [{ fields: ['parent'], reference: { resource: 'locations', fields: ['location'] } }], rows: locations,
    },
    {
      name: 'workweeks', title: 'Workweeks by period', description: 'The working weekdays of each location, by period: a date is inside the workweek when its weekday is listed in the period that contains it.',
      fields: [
        location,
        f('period', 'integer', 'Order of the period within the location, from 1.', req),
        f('from', 'date', 'First date of the period; empty: since always.'),
        f('until', 'date', 'Last date of the period; empty: still in force.'),
        f('workweek', 'list', 'Working weekdays from the first after the weekend (Sunday first in Israel), comma-separated.', { ...req, itemEnum: WEEKDAYS }),
        f('source', 'string', 'Where the workweek comes from.', req),
      ],
      primaryKey: ['location', 'period'], foreignKeys: [toLocation], rows: workweeks,
    },
    {
      name: 'day_type_rules', title: 'Day types per location', description: 'For each location and day type (business, banking, government): whether the type has data of its own or equals business, and what it is made of (each location\'s day_types).',
      fields: [
        location,
        f('type', 'string', 'Day type.', { ...req, enum: DAY_TYPES }),
        f('data', 'string', 'own: this type has data of its own here; fallback: it equals business.', { ...req, enum: ['own', 'fallback'] }),
        f('basis', 'string', 'What the type is made of here, with sources.', req),
      ],
      primaryKey: ['location', 'type'], foreignKeys: [toLocation], rows: rules,
    },
    {
      name: 'location_years', title: 'Basis per location-year', description: 'official when the year\'s days off and working days come from a published government schedule (cited in location_year_sources); rules when they are projected from date-holidays\' rules.',
      fields: [location, f('year', 'integer', 'Calendar year.', req), f('basis', 'string', 'official or rules.', { ...req, enum: ['official', 'rules'] })],
      primaryKey: ['location', 'year'], foreignKeys: [toLocation], rows: years,
    },
    {
      name: 'location_year_sources', title: 'Sources of each location-year', description: 'The official acts behind a location-year\'s official rows (the year file\'s sources, in order).',
      fields: [
        location, f('year', 'integer', 'Calendar year.', req), f('seq', 'integer', 'Order within the year\'s sources, from 1.', req),
        f('title', 'string', 'Title of the act, notice or data set.', req),
        f('number', 'string', 'The act\'s number; empty when it has none.'),
        f('date', 'date', 'When the act was signed or published; empty for a continuously updated list.'),
        f('url', 'string', 'Where to read it.', { ...req, pattern: '^https?://' }),
      ],
      primaryKey: ['location', 'year', 'seq'], foreignKeys: [{ fields: ['location', 'year'], reference: { resource: 'location_years', fields: ['location', 'year'] } }], rows: sources,
    },
    {
      name: 'holidays', title: 'Holidays', description: 'Every holiday of every location and year, one row per location, date and holiday (multi-day holidays once per day), with every field of the year files. A date is closed for a day type when a holiday on it lists that type in closes.',
      fields: [
        location, date('Local calendar date.'),
        f('type', 'string', 'public: closes businesses; bank: closes banks; government: closes government offices.', { ...req, enum: ['public', 'bank', 'government'] }),
        f('name', 'string', 'English name.', req),
        f('local_name', 'string', 'Name in the location\'s language.', req),
        f('closes', 'list', 'Day types this holiday closes, comma-separated; empty for partial days and days a curated rule keeps open.', { itemEnum: DAY_TYPES }),
        f('substitute', 'boolean', 'A substitute (observed) day under a standing rule.', req),
        f('observed_for', 'date', 'For a substitute day, the date of the holiday it replaces.'),
        f('transferred', 'boolean', 'A day off that exists only by a transfer or decree of that year.', req),
        f('transferred_from', 'date', 'For a transferred day off, the date it was moved from when the act says so.'),
        f('partial', 'boolean', 'Covers only part of the working day (not closed).', req),
        f('start_time', 'string', 'Local start time of a partial-day holiday, HH:MM.', { pattern: '^\\d{2}:\\d{2}$' }),
        f('end_time', 'string', 'Local end time of a partial-day holiday, HH:MM (24:00 = end of day).', { pattern: '^\\d{2}:\\d{2}$' }),
        f('basis', 'string', 'official: from a published schedule; rules: projected from date-holidays.', { ...req, enum: ['official', 'rules'] }),
      ],
      primaryKey: ['location', 'date', 'type', 'name'], foreignKeys: [toLocation], rows: holidays,
    },
    {
      name: 'working_days', title: 'Working days outside the workweek', description: 'Dates outside the workweek that are working days (China\'s make-up days, Russia\'s working Saturdays): a business day for the types in applies_to.',
      fields: [
        location, date('Local calendar date.'),
        f('name', 'string', 'English name.', req), f('local_name', 'string', 'Name in the act\'s language.', req),
        f('for_holiday', 'string', 'The holiday this working day pays for.', req),
        f('for_date', 'date', 'The day off it pays for, when the act pairs them.'),
        f('applies_to', 'list', 'Day types for which the date is a working day, comma-separated.', { ...req, itemEnum: DAY_TYPES }),
      ],
      primaryKey: ['location', 'date'], foreignKeys: [toLocation], rows: working,
    },
  ];
}

function timezoneTables(files: FileMap): BulkTable[] {
  const index = get<TimezonesIndex>(files, 'timezones/index.json');
  const zones: Cell[][] = [], transitions: Cell[][] = [];
  for (const { id } of index.zones) {
    const z = get<TimezoneZone>(files, `timezones/zones/${id}.json`);
    zones.push([z.id, z.name, z.country ?? null, z.comment, z.standard_offset, z.standard_offset_minutes, z.initial.offset, z.initial.offset_minutes,
      z.initial.abbreviation, z.initial.is_dst, z.window.start, z.window.end, z.tzdata_version]);
    for (const t of z.transitions) transitions.push([z.id, t.at, t.offset, t.offset_minutes, t.abbreviation, t.is_dst]);
  }
  const aliases = Object.entries(index.aliases).map(([alias, zone]): Cell[] => [alias, zone]);
  const toZone = (field: string) => ({ fields: [field], reference: { resource: 'timezones', fields: ['id'] } });
  return [
    {
      name: 'timezones', title: 'Time zones', description: 'Canonical IANA zones with their state at the start of the window (timezones/zones/{id}.json without the transitions).',
      fields: [
        f('id', 'string', 'IANA zone id.', req), f('name', 'string', 'Generic English name.', req),
        f('country', 'string', 'ISO 3166-1 alpha-2 code of the zone.tab country.'),
        f('comment', 'string', 'zone.tab\'s comment (the region the zone covers); empty when none.'),
        f('standard_offset', 'string', 'Standard offset under the latest rules, +HH:MM.', { ...req, pattern: '^[+-]\\d{2}:\\d{2}$' }),
        f('standard_offset_minutes', 'integer', 'The same in minutes.', req),
        f('initial_offset', 'string', 'Offset in force at window_start.', { ...req, pattern: '^[+-]\\d{2}:\\d{2}$' }),
        f('initial_offset_minutes', 'integer', 'The same in minutes.', req),
        f('initial_abbreviation', 'string', 'Abbreviation in force at window_start.', req),
        f('initial_is_dst', 'boolean', 'Daylight-saving flag at window_start.', req),
        f('window_start', 'datetime', 'First instant covered by zone_transitions (UTC).', req),
        f('window_end', 'datetime', 'End of the covered window (UTC).', req),
        f('tzdata_version', 'string', 'tz database release.', req),
      ],
      primaryKey: ['id'], foreignKeys: [], rows: zones,
    },
    {
      name: 'timezone_aliases', title: 'Time zone aliases', description: 'Backward-compatible IANA names (links) and the canonical zone each stands for.',
      fields: [f('alias', 'string', 'Alias (tzdata link name).', req), f('zone', 'string', 'Canonical zone id.', req)],
      primaryKey: ['alias'], foreignKeys: [toZone('zone')], rows: aliases,
    },
    {
      name: 'zone_transitions', title: 'Zone transitions', description: 'Every offset change of every zone inside the window: the offset in force at an instant is that of the last transition at or before it, else the zone\'s initial state.',
      fields: [
        f('zone', 'string', 'IANA zone id.', req), f('at', 'datetime', 'Instant of the change (UTC).', req),
        f('offset', 'string', 'UTC offset from then on, +HH:MM.', { ...req, pattern: '^[+-]\\d{2}:\\d{2}$' }),
        f('offset_minutes', 'integer', 'The same in minutes.', req), f('abbreviation', 'string', 'Abbreviation from then on.', req),
        f('is_dst', 'boolean', 'tzdata\'s daylight-saving flag.', req),
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
    for (const s of c.subdivisions) subdivisions.push([s.code, c.code, s.name, s.type]);
  }
  const toCountry = { fields: ['country'], reference: { resource: 'countries', fields: ['code'] } };
  return [
    {
      name: 'countries', title: 'Countries', description: 'ISO 3166-1 countries (countries/{CODE}.json without links, currencies, languages and subdivisions, which have tables of their own).',
      fields: [
        f('code', 'string', 'ISO 3166-1 alpha-2.', { ...req, pattern: '^[A-Z]{2}$' }), f('alpha3', 'string', 'ISO 3166-1 alpha-3.', req),
        f('numeric', 'string', 'ISO 3166-1 numeric, three digits with leading zeros.', { ...req, pattern: '^\\d{3}$' }),
        f('name', 'string', 'Common English name.', req), f('official_name', 'string', 'Official English name.', req), f('continent', 'string', 'Continent.', req),
        f('capital', 'string', 'Capital (seat of government where there are several).'), f('capital_latitude', 'number', 'Latitude of the capital, degrees.'),
        f('capital_longitude', 'number', 'Longitude of the capital, degrees.'), f('primary_currency', 'string', 'ISO 4217 code of the primary currency.'),
        f('primary_language', 'string', 'Primary official language code.'), f('cctld', 'string', 'Country-code top-level domain.'),
        f('phone_code', 'string', 'International calling code with a leading plus.'), f('driving_side', 'string', 'left or right.', { ...req, enum: ['left', 'right'] }),
        f('workweek', 'list', 'Working weekdays today, from the first after the weekend, comma-separated.', { itemEnum: WEEKDAYS }),
        f('timezones', 'list', 'Canonical IANA zones of the country, in zone.tab order, comma-separated.'),
        f('neighbors', 'list', 'Countries sharing a land border, comma-separated.'),
      ],
      primaryKey: ['code'], foreignKeys: [], rows,
    },
    {
      name: 'country_currencies', title: 'Currencies per country', description: 'ISO 4217 currencies that are legal tender, the primary one first.',
      fields: [f('country', 'string', 'ISO 3166-1 alpha-2.', req), f('seq', 'integer', 'Order, from 1 (primary first).', req), f('code', 'string', 'ISO 4217 code.', req), f('name', 'string', 'English name.', req), f('symbol', 'string', 'Symbol.', req)],
      primaryKey: ['country', 'code'], foreignKeys: [toCountry], rows: currencies,
    },
    {
      name: 'country_languages', title: 'Languages per country', description: 'Official and national languages, the primary one first.',
      fields: [f('country', 'string', 'ISO 3166-1 alpha-2.', req), f('seq', 'integer', 'Order, from 1 (primary first).', req), f('code', 'string', 'ISO 639 code.', req), f('name', 'string', 'English name.', req)],
      primaryKey: ['country', 'code'], foreignKeys: [toCountry], rows: languages,
    },
    {
      name: 'subdivisions', title: 'Subdivisions', description: 'Every ISO 3166-2 subdivision, all levels.',
      fields: [f('code', 'string', 'ISO 3166-2 code.', req), f('country', 'string', 'ISO 3166-1 alpha-2.', req), f('name', 'string', 'Name as ISO 3166-2 gives it.', req), f('type', 'string', 'ISO 3166-2 category.', req)],
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
  return {
    name: 'subdivision_seats', title: 'Seats of subdivisions', description: 'The administrative seat of each ISO 3166-2 subdivision (GeoNames place, CC BY 4.0, joined as sources/seats/SOURCE.md describes) with the IANA zone at the seat; a subdivision without a known seat has empty seat columns and the reason.',
    fields: [
      f('code', 'string', 'ISO 3166-2 code (subdivisions.code).', req), f('country', 'string', 'ISO 3166-1 alpha-2.', req),
      f('seat', 'string', 'Name of the seat as GeoNames gives it; empty when unknown.'), f('latitude', 'number', 'Degrees.'), f('longitude', 'number', 'Degrees.'),
      f('geonames_id', 'integer', 'GeoNames feature id; empty for a seat typed from a cited source, or none.'),
      f('timezone', 'string', 'Canonical IANA zone at the seat.'), f('source', 'string', 'How the seat was found.'),
      f('missing_reason', 'string', 'Why there is no seat; empty when there is one.'),
    ],
    primaryKey: ['code'],
    foreignKeys: [{ fields: ['code'], reference: { resource: 'subdivisions', fields: ['code'] } }, { fields: ['timezone'], reference: { resource: 'timezones', fields: ['id'] } }],
    rows,
  };
}

function travelTables(files: FileMap): BulkTable[] {
  const index = get<TravelIndex>(files, 'travel/index.json');
  const travel: Cell[][] = [], stations: Cell[][] = [], normals: Cell[][] = [];
  for (const code of index.destinations) {
    const t = get<TravelInfo>(files, `travel/${code}.json`);
    const climate = files.get(`travel/climate/${code}.json`) as ClimateNormals | undefined;
    // The documents hold no climate source (they answer without date); the column names the station a dated answer cites.
    travel.push([t.destination, t.country, t.driving_side, t.phone_code, t.emergency.police, t.emergency.ambulance, t.emergency.fire, t.power.voltage,
      t.power.frequency, t.power.plugs, t.sources.power, t.sources.emergency, t.sources.phone_code, t.sources.driving_side, climate ? climateSourceText(climate.station) : null]);
    if (!climate) continue;
    const s = climate.station;
    stations.push([code, s.wmo_id, s.name, s.country, s.latitude, s.longitude, s.distance_km, s.period]);
    climate.months.forEach((m) => normals.push([code, MONTHS.indexOf(m.month) + 1, s.wmo_id, m.month, m.temp_high_c, m.temp_low_c, m.precipitation_mm,
      m.precipitation_days, m.humidity_percent, m.humidity_derived, m.cloud_cover_percent, m.sunshine_hours, m.wind_speed_kmh]));
  }
  const { places } = get<AstronomyPlaces>(files, 'astronomy/places.json');
  // Countries only: a region's place is its seat, in subdivision_seats.
  const astronomy = Object.entries(places).filter(([code]) => code.length === 2).map(([code, p]): Cell[] => [code, p.name, p.latitude, p.longitude, p.timezone]);
  const toDestination = { fields: ['destination'], reference: { resource: 'travel', fields: ['destination'] } };
  const num = (name: string, d: string) => f(name, 'number', `${d}; empty when the station does not report it.`);
  return [
    {
      name: 'travel', title: 'Travel facts', description: 'Travel facts per destination (countries, and regions whose facts differ; other ISO 3166-2 codes answer with their country\'s row).',
      fields: [
        f('destination', 'string', 'Country or region code.', req), f('country', 'string', 'The destination\'s country.', req),
        f('driving_side', 'string', 'left or right.', { ...req, enum: ['left', 'right'] }), f('phone_code', 'string', 'Calling code with its leading plus.', req),
        f('emergency_police', 'string', 'Digits to dial for the police.', req), f('emergency_ambulance', 'string', 'Digits to dial for an ambulance.', req),
        f('emergency_fire', 'string', 'Digits to dial for the fire brigade.', req), f('voltage', 'integer', 'Mains voltage, volts.', req),
        f('frequency', 'integer', 'Mains frequency, hertz.', req), f('plugs', 'list', 'Plug types (IEC letters), comma-separated.', req),
        f('source_power', 'string', 'Source of the power facts.', req), f('source_emergency', 'string', 'Source of the emergency numbers.', req),
        f('source_phone_code', 'string', 'Source of the calling code.', req), f('source_driving_side', 'string', 'Source of the driving side.', req),
        f('source_climate', 'string', 'Climate station used for the destination; empty when none.'),
      ],
      primaryKey: ['destination'], foreignKeys: [], rows: travel,
    },
    {
      name: 'climate_stations', title: 'Climate stations', description: 'The WMO station whose 1991-2020 normals describe each destination (nearest its capital or principal city).',
      fields: [
        f('destination', 'string', 'Travel destination.', req), f('wmo_id', 'string', 'WMO (or national) station id.', req), f('name', 'string', 'Station name.', req),
        f('country', 'string', 'Country whose service submitted the normals.', req), f('latitude', 'number', 'Degrees.', req), f('longitude', 'number', 'Degrees.', req),
        f('distance_km', 'number', 'Distance from the destination\'s capital or principal city.', req), f('period', 'string', 'Normals period.', req),
      ],
      primaryKey: ['destination'], foreignKeys: [toDestination], rows: stations,
    },
    {
      name: 'climate_normals', title: 'Climate normals per station and month', description: 'WMO Climatological Standard Normals 1991-2020, one row per destination\'s station and month. A value the station does not report is empty, never invented.',
      fields: [
        f('destination', 'string', 'Travel destination.', req), f('month', 'integer', 'Month number, 1-12.', req), f('wmo_id', 'string', 'Station id (climate_stations).', req),
        f('month_name', 'string', 'English month name.', { ...req, enum: MONTHS }),
        num('temp_high_c', 'Mean daily maximum, Celsius'), num('temp_low_c', 'Mean daily minimum, Celsius'), num('precipitation_mm', 'Mean monthly total, millimetres'),
        num('precipitation_days', 'Mean days with precipitation'), num('humidity_percent', 'Mean relative humidity'),
        f('humidity_derived', 'boolean', 'Humidity derived from vapour pressure and temperature (Magnus formula).', req),
        num('cloud_cover_percent', 'Mean cloud cover'), num('sunshine_hours', 'Mean daily sunshine hours'), num('wind_speed_kmh', 'Mean wind speed, km/h'),
      ],
      primaryKey: ['destination', 'month'], foreignKeys: [{ fields: ['destination'], reference: { resource: 'climate_stations', fields: ['destination'] } }], rows: normals,
    },
    {
      name: 'astronomy_places', title: 'Astronomy places', description: 'The place each country code stands for in the astronomy area (its capital) and that place\'s zone.',
      fields: [
        f('code', 'string', 'ISO 3166-1 alpha-2.', req), f('name', 'string', 'Place name.', req), f('latitude', 'number', 'Degrees.', req),
        f('longitude', 'number', 'Degrees.', req), f('timezone', 'string', 'IANA zone id.', req),
      ],
      primaryKey: ['code'], foreignKeys: [{ fields: ['code'], reference: { resource: 'countries', fields: ['code'] } }, { fields: ['timezone'], reference: { resource: 'timezones', fields: ['id'] } }],
      rows: astronomy,
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

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
function isDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const y = Number(v.slice(0, 4)), m = Number(v.slice(5, 7)), d = Number(v.slice(8, 10));
  return m >= 1 && m <= 12 && d >= 1 && d <= (m === 2 && !isLeap(y) ? 28 : DAYS_IN_MONTH[m - 1]);
}

const TYPE_CHECKS: Record<BulkField['type'], (v: string) => boolean> = {
  string: (v) => v !== '',
  list: (v) => v !== '',
  integer: (v) => /^-?\d+$/.test(v),
  number: (v) => /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v),
  boolean: (v) => v === 'true' || v === 'false',
  date: isDate,
  datetime: (v) => /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/.test(v) && isDate(v.slice(0, 10)),
};

/** A checker per field: the problem with a non-empty value, or undefined. */
function fieldChecker(field: BulkField): (v: string) => string | undefined {
  const type = TYPE_CHECKS[field.type];
  const allowed = new Set(field.type === 'list' ? field.itemEnum : field.enum);
  const pattern = field.pattern ? new RegExp(field.pattern) : undefined;
  const one = (item: string) => {
    if (!type(item)) return `${field.name} ${JSON.stringify(item)} is not a ${field.type}`;
    if (allowed.size && !allowed.has(item)) return `${field.name} ${JSON.stringify(item)} is not one of ${[...allowed].join(', ')}`;
    if (pattern && !pattern.test(item)) return `${field.name} ${JSON.stringify(item)} does not match ${field.pattern}`;
    return undefined;
  };
  if (field.type !== 'list') return one;
  return (v) => {
    for (const item of v.split(LIST_DELIMITER)) {
      const problem = one(item);
      if (problem) return problem;
    }
    return undefined;
  };
}

/**
 * Parses a table's CSV back (an independent parser: csv-parse) and checks it against its Table Schema: header,
 * column count, types, required fields, enums and patterns, unique primary keys, foreign keys into `all`.
 * Throws naming the table, line and column of the first problems.
 */
export function validateCsv(table: BulkTable, csv: string, all: Map<string, BulkTable>): number {
  const records = parse(csv, { relax_column_count: true, record_delimiter: '\r\n' }) as string[][];
  const problems: string[] = [];
  const names = table.fields.map((x) => x.name);
  if (records[0]?.join(',') !== names.join(',')) problems.push(`header is ${records[0]?.join(',')}, expected ${names.join(',')}`);
  const keys = new Set<string>();
  const pk = table.primaryKey.map((k) => names.indexOf(k));
  const checks = table.fields.map(fieldChecker);
  const required = table.fields.map((x) => Boolean(x.required) || table.primaryKey.includes(x.name));
  for (let n = 1; n < records.length && problems.length < 10; n++) {
    const rec = records[n];
    const at = `line ${n + 1}`;
    if (rec.length !== names.length) {
      problems.push(`${at}: ${rec.length} columns, expected ${names.length}`);
      continue;
    }
    for (let i = 0; i < rec.length; i++) {
      const v = rec[i];
      if (v === '') {
        if (required[i]) problems.push(`${at}: ${names[i]} is required`);
        continue;
      }
      const problem = checks[i](v);
      if (problem) problems.push(`${at}: ${problem}`);
    }
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

/** The Frictionless Data Package v2 descriptor: a tabular resource per CSV, the SQLite file as a plain resource. */
export function dataPackage(tables: BulkTable[], csv: Map<string, string>, attribution: Attribution, sqlite?: Uint8Array) {
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
        ? [{ $schema: `${PROFILE}/dataresource.json`, name: 'refdata-sqlite', path: 'refdata.sqlite', title: 'The same tables as one SQLite database', format: 'sqlite', mediatype: 'application/vnd.sqlite3', bytes: sqlite.length, hash: `sha256:${sha(sqlite)}` }]
        : []),
    ],
  };
}

/**
 * The tables, and the files of bulk/ but the SQLite one: {name}.csv for every table, {name}.csv.gz for those
 * over GZIP_OVER. Each CSV is validated against its Table Schema here.
 */
export function emitBulk(files: FileMap): { tables: BulkTable[]; csv: Map<string, string>; files: Map<string, string | Buffer> } {
  const tables = buildTables(files);
  const byName = new Map(tables.map((t) => [t.name, t]));
  const csv = new Map<string, string>();
  const out = new Map<string, string | Buffer>();
  for (const t of tables) {
    const text = toCsv(t);
    validateCsv(t, text, byName);
    csv.set(t.name, text);
    out.set(`bulk/${t.name}.csv`, text);
    if (Buffer.byteLength(text) > GZIP_OVER) out.set(`bulk/${t.name}.csv.gz`, gzipDeterministic(text));
  }
  return { tables, csv, files: out };
}

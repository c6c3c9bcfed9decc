/**
 * Climate normals (pipeline/stages/ingest-climate.ts) over the real sources/climate
 * files, with the capitals as restcountries gives them (capitalInfo.latlng, capital[0]):
 * schema, physical ranges, seasons, published station normals typed in by hand,
 * the reviewed station choices, unit conversions and a coverage report; and the
 * regions' normals (the station nearest each subdivision seat).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  CLIMATE_FIELDS,
  MAX_AUTO_DISTANCE_KM,
  MAX_DISTANCE_KM,
  MAX_REGION_DISTANCE_KM,
  MONTHS,
  buildMonths,
  haversineKm,
  magnusRelativeHumidity,
  parseValue,
  round1,
  type ParamRow,
} from '../lib/climate.js';
import { ingestClimate, ingestRegionalClimate, loadClimateSources, loadStationChoices, type ClimateNormals } from '../pipeline/stages/ingest-climate.js';
import { ingestSeats } from '../pipeline/stages/ingest-seats.js';
import { createAjv } from '../pipeline/stages/validate.js';

const SOURCES = join(import.meta.dirname, '..', 'sources');
type Capital = { name: string; latitude: number; longitude: number };

const rc = JSON.parse(readFileSync(join(SOURCES, 'restcountries', 'slim-car-idd-capital.json'), 'utf8')) as {
  countries: { cca2: string; capital?: string[]; capitalInfo?: { latlng?: number[] } }[];
};
const capitals: Record<string, Capital | null> = {};
for (const c of rc.countries) {
  const ll = c.capitalInfo?.latlng ?? [];
  capitals[c.cca2] = c.capital?.length && ll.length === 2 ? { name: c.capital[0], latitude: ll[0], longitude: ll[1] } : null;
}

const climate = ingestClimate(SOURCES, capitals);
const entries = Object.entries(climate);
const choicesCsv = join(SOURCES, 'climate', 'station-choices.csv');
const choiceRows = parse(readFileSync(choicesCsv, 'utf8'), { columns: true }) as Record<string, string>[];
const rowOf = (code: string) => choiceRows.find((r) => r.cca2 === code);
const month = (code: string, name: (typeof MONTHS)[number]) => climate[code].months.find((m) => m.month === name)!;

describe('every document', () => {
  it('covers most of the 250 codes and validates against schemas/climate.schema.json', () => {
    expect(Object.keys(capitals)).toHaveLength(250);
    expect(entries.length).toBeGreaterThan(150);
    const validate = createAjv().getSchema('https://refdata.dev/schemas/v1/climate.schema.json')!;
    for (const [code, doc] of entries) expect(validate(doc), `${code}: ${JSON.stringify(validate.errors)}`).toBe(true);
  });

  it('has twelve months in calendar order and at least one value', () => {
    for (const [code, doc] of entries) {
      expect(doc.months.map((m) => m.month), code).toEqual([...MONTHS]);
      expect(doc.months.some((m) => CLIMATE_FIELDS.some((f) => m[f] !== null)), code).toBe(true);
    }
  });

  it('keeps every value inside physical ranges, one decimal, highs above lows', () => {
    const limits: Record<(typeof CLIMATE_FIELDS)[number], [number, number]> = {
      temp_high_c: [-90, 60],
      temp_low_c: [-90, 60],
      precipitation_mm: [0, 3000],
      precipitation_days: [0, 31],
      humidity_percent: [1, 100],
      cloud_cover_percent: [0, 100],
      sunshine_hours: [0, 24],
      wind_speed_kmh: [0, 200],
    };
    for (const [code, doc] of entries) {
      for (const m of doc.months) {
        for (const f of CLIMATE_FIELDS) {
          const x = m[f];
          if (x === null) continue;
          expect(x, `${code} ${m.month} ${f}`).toBeGreaterThanOrEqual(limits[f][0]);
          expect(x, `${code} ${m.month} ${f}`).toBeLessThanOrEqual(limits[f][1]);
          expect(round1(x), `${code} ${m.month} ${f}`).toBe(x);
        }
        if (m.temp_high_c !== null && m.temp_low_c !== null) expect(m.temp_high_c, `${code} ${m.month}`).toBeGreaterThanOrEqual(m.temp_low_c);
        // A day with at least 1 mm brings at least 1 mm.
        if (m.precipitation_days !== null && m.precipitation_mm !== null) expect(m.precipitation_days, `${code} ${m.month}`).toBeLessThanOrEqual(m.precipitation_mm + 0.1);
        expect(m.precipitation_hours).toBeNull();
        if (m.humidity_derived) expect(m.humidity_percent, `${code} ${m.month}`).not.toBeNull();
      }
    }
  });

  it('never publishes monthly extremes as daily highs and lows (annual mean day-night range at most 18 °C)', () => {
    // Mongolia, Turkmenistan, Oman, Armenia and Niger file mean monthly extremes as TMAX/TMIN (22-31 °C ranges).
    for (const [code, doc] of entries) {
      const ranges = doc.months.filter((m) => m.temp_high_c !== null && m.temp_low_c !== null).map((m) => m.temp_high_c! - m.temp_low_c!);
      if (ranges.length) expect(ranges.reduce((a, b) => a + b) / ranges.length, code).toBeLessThanOrEqual(18);
    }
  });

  it('is deterministic', () => {
    expect(ingestClimate(SOURCES, capitals)).toEqual(climate);
  });
});

describe('seasons', () => {
  const meanTemp = (doc: ClimateNormals, name: (typeof MONTHS)[number]) => {
    const m = doc.months.find((x) => x.month === name)!;
    return m.temp_high_c === null || m.temp_low_c === null ? null : (m.temp_high_c + m.temp_low_c) / 2;
  };

  it('Buenos Aires, Santiago, Canberra and Wellington are warmer in January than in July', () => {
    for (const code of ['AR', 'CL', 'AU', 'NZ']) {
      expect(month(code, 'January').temp_high_c!, code).toBeGreaterThan(month(code, 'July').temp_high_c!);
      expect(month(code, 'January').temp_low_c!, code).toBeGreaterThan(month(code, 'July').temp_low_c!);
    }
  });

  it('Oslo, Helsinki and Stockholm are warmer in July than in January', () => {
    for (const code of ['NO', 'FI', 'SE']) {
      expect(month(code, 'July').temp_high_c!, code).toBeGreaterThan(month(code, 'January').temp_high_c!);
      expect(month(code, 'July').temp_low_c!, code).toBeGreaterThan(month(code, 'January').temp_low_c!);
    }
  });

  it('every station outside the tropics has its warm season on its own side of the equator', () => {
    let checked = 0;
    for (const [code, doc] of entries) {
      const [jan, jul] = [meanTemp(doc, 'January'), meanTemp(doc, 'July')];
      if (jan === null || jul === null || Math.abs(doc.station.latitude) < 23.5) continue;
      checked++;
      if (doc.station.latitude > 0) expect(jul, code).toBeGreaterThan(jan);
      else expect(jan, code).toBeGreaterThan(jul);
    }
    expect(checked).toBeGreaterThan(70);
  });
});

/**
 * Published 1991-2020 normals of the same stations, entered by hand from the national
 * services' tables (URL beside each; typed without network access in the build sandbox,
 * so re-check them against the pages when online). Never regenerate from our output.
 *
 * Tolerance: the WMO file is each service's own submission of the same 1991-2020
 * computation, so only rounding and later revisions should separate them. ±0.3 °C covers
 * the rounding of a monthly mean and a revision of one year's data; ±5 % of a
 * precipitation total covers the same for a quantity whose year-to-year spread is far
 * larger. A wrong station, unit or month shift is well outside both (Tokyo's neighbouring
 * months differ by 1-5 °C; a unit slip is ×3.6, ×12.5 or ×10).
 */
const PUBLISHED: { code: string; station: string; url: string; facts: { month: (typeof MONTHS)[number] | 'year'; field: 'temp_high_c' | 'temp_low_c' | 'precipitation_mm'; value: number }[] }[] = [
  {
    code: 'JP',
    station: 'TOKYO',
    url: 'https://www.data.jma.go.jp/stats/etrn/view/nml_sfc_ym.php?prec_no=44&block_no=47662&year=&month=&day=&view=',
    facts: [
      { month: 'January', field: 'temp_high_c', value: 9.8 },
      { month: 'July', field: 'temp_high_c', value: 29.9 },
      { month: 'August', field: 'temp_high_c', value: 31.3 },
      { month: 'January', field: 'temp_low_c', value: 1.2 },
      { month: 'August', field: 'temp_low_c', value: 23.5 },
      { month: 'January', field: 'precipitation_mm', value: 59.7 },
      { month: 'June', field: 'precipitation_mm', value: 167.8 },
      { month: 'September', field: 'precipitation_mm', value: 224.9 },
      { month: 'October', field: 'precipitation_mm', value: 234.8 },
      { month: 'year', field: 'precipitation_mm', value: 1598.2 },
    ],
  },
  {
    code: 'KR',
    station: 'SEOUL',
    url: 'https://data.kma.go.kr/ (climatological normals 1991-2020, station 108 Seoul)',
    facts: [
      { month: 'July', field: 'precipitation_mm', value: 414.4 },
      { month: 'August', field: 'precipitation_mm', value: 348.2 },
      { month: 'year', field: 'precipitation_mm', value: 1417.9 },
    ],
  },
  {
    code: 'HK',
    station: 'Hong Kong Observatory',
    url: 'https://www.hko.gov.hk/en/cis/normal/1991_2020/normals.htm',
    facts: [{ month: 'year', field: 'precipitation_mm', value: 2431.2 }],
  },
  {
    code: 'FR',
    station: 'PARIS-MONTSOURIS',
    url: 'https://donneespubliques.meteofrance.fr/FichesClim/FICHECLIM_75114001.pdf',
    facts: [
      { month: 'January', field: 'temp_high_c', value: 7.6 },
      { month: 'year', field: 'precipitation_mm', value: 637.4 },
    ],
  },
  {
    code: 'AR',
    station: 'BUENOS AIRES OBSERVATORIO',
    url: 'https://www.smn.gob.ar/estadisticas (normales climatológicas 1991-2020, Buenos Aires Observatorio)',
    facts: [{ month: 'January', field: 'temp_high_c', value: 30.1 }],
  },
];

describe('published station normals (golden, by hand)', () => {
  it('cover at least five capitals', () => expect(new Set(PUBLISHED.map((p) => p.code)).size).toBeGreaterThanOrEqual(5));

  for (const p of PUBLISHED) {
    it(`${p.code} ${p.station}`, () => {
      const doc = climate[p.code];
      expect(doc.station.name).toBe(p.station);
      for (const f of p.facts) {
        const ours =
          f.month === 'year' ? round1(doc.months.reduce((s, m) => s + m[f.field]!, 0)) : doc.months.find((m) => m.month === f.month)![f.field]!;
        const tolerance = f.field === 'precipitation_mm' ? 0.05 * f.value : 0.3;
        expect(Math.abs(ours - f.value), `${p.code} ${f.month} ${f.field}: ours ${ours}, published ${f.value}`).toBeLessThanOrEqual(tolerance + 1e-9);
      }
    });
  }
});

describe('station choice', () => {
  it(`lies within ${MAX_DISTANCE_KM} km, and beyond ${MAX_AUTO_DISTANCE_KM} km only by a reviewed row`, () => {
    for (const [code, doc] of entries) {
      expect(doc.station.distance_km, code).toBeLessThanOrEqual(MAX_DISTANCE_KM);
      if (doc.station.distance_km > MAX_AUTO_DISTANCE_KM) expect(rowOf(code)?.decision, code).toBe('use');
    }
    expect(climate.AD.station.distance_km).toBeGreaterThan(MAX_AUTO_DISTANCE_KM); // Saint-Girons, reviewed
  });

  it('measures distance_km by haversine from the capital (corrected where a row says so)', () => {
    for (const [code, doc] of entries) {
      const row = rowOf(code);
      const cap = row?.capital ? { latitude: Number(row.capital_lat), longitude: Number(row.capital_lon) } : capitals[code]!;
      const d = haversineKm(cap.latitude, cap.longitude, doc.station.latitude, doc.station.longitude);
      expect(Math.abs(d - doc.station.distance_km), code).toBeLessThanOrEqual(0.05);
    }
    expect(haversineKm(0, 0, 0, 1)).toBeCloseTo(111.195, 3); // one degree of the equator, R = 6,371.0088 km
    expect(haversineKm(0, 0, 0, 180)).toBeCloseTo(20015.115, 2); // half the circumference
  });

  it('takes another country\'s station only by a reviewed row, and says whose it is', () => {
    for (const [code, doc] of entries) if (doc.station.country !== code) expect(rowOf(code)?.decision, code).toBe('use');
    for (const code of ['AD', 'LI', 'MC', 'SM', 'VA']) expect(climate[code].station.country, code).not.toBe(code);
    expect(climate.LI.station).toMatchObject({ name: 'VADUZ', country: 'CH' });
    expect(climate.TW.station).toMatchObject({ name: 'TAIBEI', country: 'CN' });
  });

  it('rejects the Bermuda match for Grenada and uses Grenada\'s own station at the real St. George\'s', () => {
    expect(climate.GD.station).toMatchObject({ name: 'MAURICE_BISHOP_INTL_AIRPORT', country: 'GD' });
    expect(climate.GD.station.distance_km).toBeLessThan(10);
    expect(climate.BM.station.name).toBe('Bermuda Weather Service');
  });

  it('uses the right station for BF, TZ and MD despite the files\' coordinates', () => {
    expect(climate.BF.station.name).toBe('OUAGADOUGOU');
    expect(climate.TZ.station.name).toBe('DODOMA');
    expect(climate.MD.station.name).toBe('Chisinau');
    for (const code of ['BF', 'TZ', 'MD', 'AG', 'OM', 'PL', 'DM']) expect(climate[code].station.distance_km, code).toBeLessThan(35);
  });

  it('publishes nothing for rejected matches and codes without a capital', () => {
    const rejected = choiceRows.filter((r) => r.decision === 'reject').map((r) => r.cca2);
    expect(rejected).toEqual(expect.arrayContaining(['AL', 'JO', 'KG', 'LB', 'TJ', 'TM', 'XK', 'HT', 'BT', 'VC', 'BI', 'TF', 'WF', 'UM']));
    for (const code of [...rejected, 'AQ', 'BV', 'HM']) expect(climate[code], code).toBeUndefined();
  });

  it('follows every reviewed use row, and drops the fields it names', () => {
    for (const r of choiceRows.filter((x) => x.decision === 'use')) {
      const doc = climate[r.cca2];
      expect(doc, r.cca2).toBeDefined();
      for (const f of r.drop_fields.split(' ').filter(Boolean)) {
        expect(doc.months.every((m) => m[f as (typeof CLIMATE_FIELDS)[number]] === null), `${r.cca2} ${f}`).toBe(true);
      }
    }
    expect(climate.US.station.name).toBe('VA WASHINGTON REAGAN AP');
  });

  it('fails closed on a stale capital correction or a malformed row', () => {
    expect(() => ingestClimate(SOURCES, { GD: { name: "St. George's", latitude: 10, longitude: -60 } })).toThrow(/capital correction/);
    const bad = join(tmpdir(), `station-choices-${process.pid}.csv`);
    writeFileSync(bad, `${Object.keys(choiceRows[0]).join(',')}\nAD,use,x.csv,,,,,,,,,,\n`);
    try {
      expect(() => loadStationChoices(bad)).toThrow(/reason and a source/);
    } finally {
      rmSync(bad, { force: true });
    }
  });
});

describe('parsing and units', () => {
  const row = (unit: string, values: (string | number)[]): ParamRow[] => [{ unit, values: values.map(String) }];
  const params = (entries: Record<string, ParamRow[]>) => new Map(Object.entries(entries));
  const twelve = (x: string | number) => Array(12).fill(x);

  it('reads numbers strictly', () => {
    for (const t of ['', ' ', 'NA', '#DIV/0!', '***', '-99.9', '-100.0', '0.9%', '1,5', 'x']) expect(parseValue(t), t).toBeNull();
    expect(parseValue('-.8')).toBe(-0.8);
    expect(parseValue(' 12 ')).toBe(12);
    expect(parseValue('0')).toBe(0);
  });

  it('converts by unit_in_file and drops outliers', () => {
    const months = buildMonths(
      params({
        'TMAX_C/1': row('deg_c', [-369.3, 5, 9, 14, 19, 23, 25, 25, 20, 14, 8, 4]), // Kerewan's August high, in January
        'TMIN_C/1': row('deg_c', [-2, -1, 1, 5, 9, 13, 15, 205, 11, 7, 3, 0]), // Qutaisi's July low, in August
        'WIND_ms/1': row('m/sec', twelve(3.8)),
        'CLOUD_okta/1': row('oktas', [4, 8.1, ...twelve(4).slice(2)]),
        'TSUN_hours/4': row('hours', [192.6, 169.5, ...twelve(100).slice(2)]),
        'PRCP_mm/4': row('mm', [0, ...twelve(50).slice(1)]),
        'DP01_days/5': row('count', [0.6, 32, ...twelve(8).slice(2)]),
      }),
    )!;
    expect(months[0].temp_high_c).toBeNull();
    expect(months[7].temp_low_c).toBeNull();
    expect(months[1]).toMatchObject({ temp_high_c: 5, temp_low_c: -1, wind_speed_kmh: 13.7, cloud_cover_percent: null, sunshine_hours: 6, precipitation_days: null });
    expect(months[0]).toMatchObject({ cloud_cover_percent: 50, sunshine_hours: 6.2, precipitation_days: null }); // 0.6 days in a 0 mm month
    expect(months[2].precipitation_days).toBe(8);
  });

  it('knows km/h, tenths, percent, count_% and unknown units', () => {
    const [m] = buildMonths(
      params({
        'WIND_ms/1': row('km/h', twelve(17)),
        'CLOUD_okta/1': row('tenths', twelve(6.8)),
        'DP01_days/5': row('count_%', twelve(3.4)),
        'PRCP_mm/4': row('mm', twelve(20)),
        'RH_pct/1': row('hours', twelve(50)),
        'TSUN_hours/4': row('hours', twelve('')),
      }),
    )!;
    expect(m).toMatchObject({ wind_speed_kmh: 17, cloud_cover_percent: 68, precipitation_days: 3.4, humidity_percent: null, sunshine_hours: null });
    expect(buildMonths(params({ 'CLOUD_okta/1': row('%', twelve(74)) }))![0].cloud_cover_percent).toBe(74);
  });

  it('drops a temperature spike and a high below its low', () => {
    const months = buildMonths(
      params({
        'TMAX_C/1': row('deg_c', [1, 2, 6, 11, 16, -20.5, 22, 21, 16, 10, 5, 2]),
        'TMIN_C/1': row('deg_c', [-4, -4, -1, 2, 7, 11, 13, 22, 9, 4, 0, -3]),
      }),
    )!;
    expect(months[5].temp_high_c).toBeNull();
    expect(months[7]).toMatchObject({ temp_high_c: null, temp_low_c: null });
    expect(months[6]).toMatchObject({ temp_high_c: 22, temp_low_c: 13 });
  });

  it('derives humidity by Magnus only without a reported value and at 0 °C or warmer', () => {
    expect(magnusRelativeHumidity(11.66, 20)).toBeCloseTo(50, 1);
    const months = buildMonths(
      params({
        'MNVP_hPa/1': row('hpa', twelve(11.66)),
        'TAVG_C/1': row('deg_c', [20, -1, ...twelve(20).slice(2)]),
        'RH_pct/1': row('%', ['', '', 64.6, ...twelve('').slice(3)]),
      }),
    )!;
    expect(months[0]).toMatchObject({ humidity_percent: 50, humidity_derived: true });
    expect(months[1]).toMatchObject({ humidity_percent: null, humidity_derived: false });
    expect(months[2]).toMatchObject({ humidity_percent: 64.6, humidity_derived: false });
  });

  it('converts the real files as their units say', () => {
    expect(month('AT', 'January').wind_speed_kmh).toBe(13.7); // Wien Hohe Warte 3.8 m/s
    expect(month('SD', 'January').wind_speed_kmh).toBe(17); // Khartoum 17 Km/h
    expect(month('BA', 'January').cloud_cover_percent).toBe(68); // Sarajevo 6.8 tenths
    expect(month('FO', 'January').cloud_cover_percent).toBe(74); // Tórshavn 74 %
    expect(month('AR', 'January').cloud_cover_percent).toBe(40); // Buenos Aires 3.2 oktas
    expect(month('IE', 'January').humidity_percent).toBe(85.6); // Dublin: a mean filed as code 5
  });
});

describe('coverage', () => {
  it('reports how many of the 250 codes have each field', () => {
    const total = Object.keys(capitals).length;
    const lines = [`climate for ${entries.length} of ${total} codes`];
    const counts: Record<string, number> = {};
    for (const f of CLIMATE_FIELDS) {
      const any = entries.filter(([, d]) => d.months.some((m) => m[f] !== null)).length;
      const all = entries.filter(([, d]) => d.months.every((m) => m[f] !== null)).length;
      counts[f] = any;
      lines.push(`  ${f.padEnd(20)} ${String(any).padStart(3)} codes (${all} with all 12 months)`);
    }
    const derived = entries.filter(([, d]) => d.months.some((m) => m.humidity_derived)).length;
    lines.push(`  humidity derived (Magnus) for ${derived} codes; precipitation_hours null everywhere`);
    console.log(lines.join('\n'));
    expect(counts.precipitation_mm).toBeGreaterThan(150);
    expect(counts.temp_high_c).toBeGreaterThan(140);
    for (const f of CLIMATE_FIELDS) expect(counts[f]).toBeLessThanOrEqual(entries.length);
  });
});

describe('regions: the station nearest the seat', async () => {
  const { seats } = await ingestSeats(SOURCES);
  const sources = loadClimateSources(SOURCES);
  const regional = ingestRegionalClimate(sources, seats);
  const docs = Object.entries(regional.normals);

  it('validates, lies within 100 km of the seat (haversine from the seat) in the region\'s own country', () => {
    expect(MAX_REGION_DISTANCE_KM).toBe(100);
    expect(docs.length).toBeGreaterThan(2000);
    const validate = createAjv().getSchema('https://refdata.dev/schemas/v1/climate.schema.json')!;
    for (const [code, doc] of docs) {
      expect(validate(doc), `${code}: ${JSON.stringify(validate.errors)}`).toBe(true);
      const seat = seats.get(code)!;
      const d = haversineKm(seat.latitude, seat.longitude, doc.station.latitude, doc.station.longitude);
      expect(Math.abs(d - doc.station.distance_km), code).toBeLessThanOrEqual(0.05);
      expect(doc.station.distance_km, code).toBeLessThanOrEqual(MAX_REGION_DISTANCE_KM);
      expect(doc.station.country, code).toBe(code.slice(0, 2));
    }
  });

  it('gives every region without normals its reason: no seat, or no station near it', () => {
    for (const [code, seat] of seats) {
      if (regional.normals[code]) continue;
      expect(regional.notes[code]?.reason, code).toBe(seat ? 'no_station_near_seat' : 'no_seat');
    }
  });

  it('has the warm season on the station\'s side of the equator outside the tropics', () => {
    let checked = 0;
    for (const [code, doc] of docs) {
      const t = (name: (typeof MONTHS)[number]) => {
        const m = doc.months.find((x) => x.month === name)!;
        return m.temp_high_c === null || m.temp_low_c === null ? null : (m.temp_high_c + m.temp_low_c) / 2;
      };
      const [jan, jul] = [t('January'), t('July')];
      if (jan === null || jul === null || Math.abs(doc.station.latitude) < 23.5) continue;
      checked++;
      if (doc.station.latitude > 0) expect(jul, code).toBeGreaterThan(jan);
      else expect(jan, code).toBeGreaterThan(jul);
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('never publishes monthly extremes as daily highs and lows (Mongolia, Armenia, Oman, Niger, Turkmenistan; any 18 °C mean range)', () => {
    for (const [code, doc] of docs) {
      const ranges = doc.months.filter((m) => m.temp_high_c !== null && m.temp_low_c !== null).map((m) => m.temp_high_c! - m.temp_low_c!);
      if (ranges.length) expect(ranges.reduce((a, b) => a + b) / ranges.length, code).toBeLessThanOrEqual(18);
      if (['MN', 'AM', 'OM', 'NE', 'TM'].includes(code.slice(0, 2))) expect(ranges, code).toEqual([]);
    }
  });

  it('fails closed when seat-points.csv no longer matches the seats', () => {
    const moved = new Map(seats);
    const de = moved.get('DE-BY')!;
    moved.set('DE-BY', { ...de, latitude: de.latitude + 1 });
    expect(() => ingestRegionalClimate(sources, moved)).toThrow(/seat-points\.csv does not match the seats \(DE-BY\)/);
  });

  it('is deterministic', () => {
    expect(ingestRegionalClimate(sources, seats)).toEqual(regional);
  });
});

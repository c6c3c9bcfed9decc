/**
 * GET /v1/timezones/lookup: points chosen by hand near zone borders, in
 * enclaves and at sea, each with the zone the official rules give it and why
 * (typed from the rules, not from the boundary data), plus the answer's
 * shape, candidates on borders, `at`, and bad input.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOUNDARIES } from '../lib/geo-boundaries.js';
import type { Attribution, Manifest } from '../lib/schema-types.js';
import { zoneAt, zonesAt } from '../server/geo.js';
import { appAt, DATA_DIR, getJson, sharedTimezones } from './helpers.js';
import { assertMatchesSchema } from './schemas.js';

const app = appAt(new Date('2026-11-21T12:00:00Z'));
const CFR = 'https://www.ecfr.gov/current/title-49/subtitle-A/part-71'; // 49 CFR part 71: US time zone boundaries, county by county
const NAUTICAL = 'nautical zone: 15° bands centred on multiples of 15°, POSIX sign (Etc/GMT+3 is UTC-3)';

// [place, latitude, longitude, expected zone, why]
const POINTS: [string, number, number, string, string][] = [
  ['El Paso, TX', 31.7619, -106.485, 'America/Denver', `El Paso County is in the Mountain zone (49 CFR part 71, ${CFR})`],
  ['Ciudad Juárez, Chihuahua', 31.6904, -106.4245, 'America/Ciudad_Juarez', 'the border municipality keeps US-aligned Mountain time since 2022, unlike the rest of Chihuahua'],
  ['Amarillo, TX', 35.222, -101.8313, 'America/Chicago', `the Texas Panhandle is Central; only El Paso and Hudspeth counties are Mountain (49 CFR part 71)`],
  ['Window Rock, AZ (Navajo Nation)', 35.6807, -109.0526, 'America/Denver', 'the Navajo Nation observes DST though Arizona does not'],
  ['Tuba City, AZ (Navajo Nation)', 36.135, -111.2399, 'America/Denver', 'western Navajo Nation, still on Navajo (Mountain with DST) time'],
  ['Kykotsmovi Village, AZ (Hopi Reservation)', 35.8725, -110.6254, 'America/Phoenix', 'the Hopi Reservation, inside the Navajo Nation, follows Arizona (no DST)'],
  ['Phoenix, AZ', 33.4484, -112.074, 'America/Phoenix', 'Arizona exempts itself from DST (15 U.S.C. 260a(a))'],
  ['Indianapolis, IN (Marion County)', 39.7684, -86.1581, 'America/Indiana/Indianapolis', 'most of Indiana: Eastern with DST since 2006'],
  ['Gary, IN (Lake County)', 41.5934, -87.3464, 'America/Chicago', 'the Chicago-area counties of NW Indiana are Central (49 CFR part 71)'],
  ['Evansville, IN (Vanderburgh County)', 37.9716, -87.5711, 'America/Chicago', 'SW Indiana around Evansville is Central (49 CFR part 71)'],
  ['Vincennes, IN (Knox County)', 38.6773, -87.5286, 'America/Indiana/Vincennes', 'Knox County: Eastern now, with its own history (Central 2006-2007)'],
  ['Jasper, IN (Dubois County)', 38.3914, -86.9311, 'America/Indiana/Vincennes', 'Dubois County shares Knox County\'s history (zone.tab: Da, Du, K, Mn)'],
  ['Tell City, IN (Perry County)', 37.9514, -86.7678, 'America/Indiana/Tell_City', 'Perry County went back to Central in 2006'],
  ['Petersburg, IN (Pike County)', 38.492, -87.2786, 'America/Indiana/Petersburg', 'Pike County: Central 2006-2007, then Eastern'],
  ['Knox, IN (Starke County)', 41.2959, -86.625, 'America/Indiana/Knox', 'Starke County is Central since 2006'],
  ['Winamac, IN (Pulaski County)', 41.0514, -86.6031, 'America/Indiana/Winamac', 'Pulaski County: Central 2006-2007, then Eastern'],
  ['Vevay, IN (Switzerland County)', 38.7478, -85.0672, 'America/Indiana/Vevay', 'Switzerland County kept DST before 2006 (own history)'],
  ['Marengo, IN (Crawford County)', 38.3695, -86.3436, 'America/Indiana/Marengo', 'Crawford County has its own pre-2006 history'],
  ['Lloydminster, SK side', 53.28, -109.99, 'America/Edmonton', 'the city charter puts all of Lloydminster on Alberta time, across the Saskatchewan line'],
  ['Lloydminster, AB side', 53.2783, -110.02, 'America/Edmonton', 'Alberta'],
  ['Kaliningrad', 54.7104, 20.4522, 'Europe/Kaliningrad', 'the Russian exclave keeps UTC+2, an hour behind Moscow'],
  ['Ceuta', 35.8894, -5.3213, 'Africa/Ceuta', 'Spanish city in Africa: Central European Time like Spain'],
  ['Melilla', 35.2923, -2.9381, 'Africa/Ceuta', 'the other Spanish city in Africa (tzdata: Ceuta, Melilla)'],
  ['Tétouan, Morocco', 35.5785, -5.3684, 'Africa/Casablanca', 'Morocco, next to Ceuta'],
  ['Las Palmas, Canary Islands', 28.1235, -15.4363, 'Atlantic/Canary', 'the Canaries keep WET, an hour behind mainland Spain'],
  ['Santa Cruz de Tenerife', 28.4636, -16.2518, 'Atlantic/Canary', 'Canary Islands'],
  ['Ürümqi, Xinjiang', 43.8256, 87.6168, 'Asia/Urumqi', 'Xinjiang Time (UTC+6), tzdata\'s Asia/Urumqi; Beijing Time is also official there'],
  ['Kashgar, Xinjiang', 39.4704, 75.9898, 'Asia/Urumqi', 'Xinjiang'],
  ['Broken Hill, NSW', -31.9539, 141.4539, 'Australia/Broken_Hill', 'Yancowinna County keeps South Australian time though in New South Wales'],
  ['Eucla, WA', -31.677, 128.889, 'Australia/Eucla', 'the Eyre Highway communities keep an unofficial UTC+8:45'],
  ['Waitangi, Chatham Islands', -43.9535, -176.5597, 'Pacific/Chatham', 'Chatham Standard Time, 45 minutes ahead of New Zealand'],
  ['Kiritimati, Line Islands', 1.8721, -157.4278, 'Pacific/Kiritimati', 'Kiribati moved the Line Islands to UTC+14 in 1995'],
  ['Longyearbyen, Svalbard', 78.2232, 15.6267, 'Arctic/Longyearbyen', 'Svalbard (SJ) has its own zone.tab entry; Central European Time'],
  ['Detroit, MI', 42.3314, -83.0458, 'America/Detroit', 'Michigan (most): Eastern'],
  ['Windsor, ON', 42.3149, -83.0364, 'America/Toronto', 'across the Detroit River, Ontario Eastern'],
  ['Menominee, MI', 45.1078, -87.6142, 'America/Menominee', 'four Upper Peninsula counties bordering Wisconsin are Central (49 CFR part 71)'],
  ['Center, ND (Oliver County)', 47.1163, -101.2996, 'America/North_Dakota/Center', 'Oliver County moved to Central in 1992'],
  ['New Salem, ND (Morton County)', 46.845, -101.411, 'America/North_Dakota/New_Salem', 'Morton County (rural) moved to Central in 2003'],
  ['Beulah, ND (Mercer County)', 47.2633, -101.7779, 'America/North_Dakota/Beulah', 'Mercer County moved to Central in 2010'],
  ['Louisville, KY', 38.2527, -85.7585, 'America/Kentucky/Louisville', 'Louisville area: Eastern with its own history'],
  ['Monticello, KY (Wayne County)', 36.8298, -84.8491, 'America/Kentucky/Monticello', 'Wayne County moved to Eastern in 2000'],
  ['Boise, ID', 43.615, -116.2023, 'America/Boise', 'southern Idaho: Mountain'],
  ['Creston, BC', 49.0955, -116.5135, 'America/Creston', 'the Creston Valley keeps MST all year'],
  ['Fort Nelson, BC', 58.805, -122.6972, 'America/Fort_Nelson', 'Northern Rockies Regional Municipality: MST all year since 2015'],
  ['Dawson Creek, BC', 55.7596, -120.2377, 'America/Dawson_Creek', 'the Peace River region keeps MST all year'],
  ['Badajoz, Spain', 38.8794, -6.9707, 'Europe/Madrid', 'Spain at the Portuguese border: CET'],
  ['Elvas, Portugal', 38.881, -7.1628, 'Europe/Lisbon', 'Portugal at the Spanish border: WET, an hour behind'],
  ['Lord Howe Island', -31.5553, 159.0821, 'Australia/Lord_Howe', 'UTC+10:30 with a half-hour DST'],
  ['Norfolk Island', -29.0408, 167.9547, 'Pacific/Norfolk', 'UTC+11 with DST since 2019'],
  ['Happy Valley-Goose Bay, NL', 53.3017, -60.3261, 'America/Goose_Bay', 'Labrador: Atlantic time'],
  ["L'Anse-au-Clair, NL", 51.4264, -57.0619, 'America/St_Johns', 'southeastern Labrador keeps Newfoundland time'],
  ['Ojinaga, Chihuahua', 29.5667, -104.4167, 'America/Ojinaga', 'border municipality on US Central time since 2022'],
  ['Tiraspol, Transnistria', 46.8403, 29.6433, 'Europe/Chisinau', 'Moldova (tzdata covers Transnistria with Chisinau)'],
  ['Gaza City', 31.5017, 34.4668, 'Asia/Gaza', 'Gaza Strip'],
  ['Hebron, West Bank', 31.5326, 35.0998, 'Asia/Hebron', 'West Bank (Palestinian areas)'],
  ['Point Roberts, WA', 48.9857, -123.0759, 'America/Los_Angeles', 'US exclave south of Vancouver: Pacific'],
  ['Büsingen am Hochrhein', 47.6967, 8.6908, 'Europe/Busingen', 'German exclave inside Switzerland (zone.tab DE "Busingen")'],
  ['Macquarie Island', -54.6208, 158.8556, 'Antarctica/Macquarie', 'Tasmanian time on the island'],
  ['Severo-Kurilsk, N Kurils', 50.6781, 156.125, 'Asia/Srednekolymsk', 'MSK+8: northern Kuril Islands'],
  ['Ulyanovsk', 54.3142, 48.4031, 'Europe/Ulyanovsk', 'MSK+1 since 2016'],
  ['Volgograd', 48.708, 44.5133, 'Europe/Volgograd', 'Moscow time since 2020'],
  ['Ittoqqortoormiit, Greenland', 70.4853, -21.9667, 'America/Scoresbysund', 'Scoresbysund has its own zone'],
  ['Danmarkshavn, Greenland', 76.7667, -18.6667, 'America/Danmarkshavn', 'GMT all year'],
  ['Kathmandu', 27.7172, 85.324, 'Asia/Kathmandu', 'Nepal: UTC+5:45'],
  ['North Atlantic, 30N 40W', 30, -40, 'Etc/GMT+3', NAUTICAL],
  ['Equatorial Pacific, 0 140W', 0, -140, 'Etc/GMT+9', NAUTICAL],
  ['Indian Ocean, 30S 80E', -30, 80, 'Etc/GMT-5', NAUTICAL],
  ['South Pacific, 40S 179E', -40, 179, 'Etc/GMT-12', `${NAUTICAL}; west of the date line`],
  ['South Pacific, 40S 179W', -40, -179, 'Etc/GMT+12', `${NAUTICAL}; east of the date line`],
  ['Southern Ocean, 60S 0', -60, 0, 'Etc/GMT', NAUTICAL],
  ['Arctic Ocean, 87N 100E', 87, 100, 'Etc/GMT-7', `${NAUTICAL}; no land, no claim`],
];

describe('zones at points near borders, in enclaves and at sea', () => {
  it('at least 40 points', () => expect(POINTS.length).toBeGreaterThanOrEqual(40));
  for (const [place, latitude, longitude, zone, why] of POINTS) {
    it(`${place} → ${zone} (${why})`, async () => {
      const { status, body } = await getJson(app, `/v1/timezones/lookup?latitude=${latitude}&longitude=${longitude}`, null);
      expect(status).toBe(200);
      assertMatchesSchema('timezone-lookup.schema.json', body);
      expect(body.zone.id).toBe(zone);
      expect(body).toMatchObject({ latitude, longitude, boundary_id: zone });
    });
  }
});

describe('the answer', () => {
  it('is the zone answer, with the boundary release and its licence', async () => {
    const { body, headers } = await getJson(app, '/v1/timezones/lookup?latitude=31.7619&longitude=-106.485');
    const zone = (await getJson(app, '/v1/timezones/America%2FDenver')).body;
    expect(body.zone).toEqual(zone);
    expect(body.zone).toMatchObject({ country: 'US', offset: '-07:00', abbreviation: 'MST' });
    expect(body.candidates).toEqual([{ id: 'America/Denver', boundary_id: 'America/Denver' }]);
    expect(body.boundaries).toEqual({ source: 'timezone-boundary-builder', release: BOUNDARIES.release, license: 'ODbL-1.0', attribution: BOUNDARIES.attribution });
    expect(headers.get('cache-control')).toMatch(/^public, max-age=\d+, must-revalidate$/);
  });

  it('at sea: the nautical zone, no country', async () => {
    const { body } = await getJson(app, '/v1/timezones/lookup?latitude=30&longitude=-40');
    expect(body.zone).toMatchObject({ id: 'Etc/GMT+3', offset: '-03:00', abbreviation: '-03', name: 'GMT-03:00' });
    expect('country' in body.zone).toBe(false);
  });

  it('lists every candidate: Xinjiang has two timekeepings, the date line and the pole several zones', async () => {
    const urumqi = (await getJson(app, '/v1/timezones/lookup?latitude=43.8256&longitude=87.6168')).body;
    expect(urumqi.candidates.map((c: { id: string }) => c.id).sort()).toEqual(['Asia/Shanghai', 'Asia/Urumqi']);
    const dateLine = (await getJson(app, '/v1/timezones/lookup?latitude=-40&longitude=180')).body;
    expect(dateLine.candidates.map((c: { id: string }) => c.id).sort()).toEqual(['Etc/GMT+12', 'Etc/GMT-12']);
    const pole = (await getJson(app, '/v1/timezones/lookup?latitude=90&longitude=0')).body;
    expect(pole.candidates).toHaveLength(25);
    expect(pole.zone.id).toBe(pole.candidates[0].id);
    // At the pole the zone is the one the longitude reaches it in, as just short of it (it was Etc/GMT-12 for every longitude).
    for (const [longitude, zone] of [[0, 'Etc/GMT'], [100, 'Etc/GMT-7'], [-75, 'Etc/GMT+5']] as const) {
      const at = (latitude: string) => getJson(app, `/v1/timezones/lookup?latitude=${latitude}&longitude=${longitude}`).then((r) => r.body.zone.id);
      expect([await at('90'), await at('89.9999999')], String(longitude)).toEqual([zone, zone]);
    }
  });

  it('reads latitude=+10 sent unencoded (a space) as +10, as at reads its offset', async () => {
    const { status, body } = await getJson(app, '/v1/timezones/lookup?latitude=+10&longitude=+20');
    expect(status).toBe(200);
    expect(body).toMatchObject({ latitude: 10, longitude: 20 });
  });

  it('at: the zone\'s state at that instant', async () => {
    const { status, body, headers } = await getJson(app, '/v1/timezones/lookup?latitude=31.7619&longitude=-106.485&at=2026-07-01T12:00:00Z');
    expect(status).toBe(200);
    expect(body.zone).toMatchObject({ id: 'America/Denver', at: '2026-07-01T12:00:00Z', offset: '-06:00', abbreviation: 'MDT', is_dst: true });
    expect(headers.get('cache-control')).toBe('public, max-age=3600, stale-while-revalidate=86400');
  });

  it('every zone the boundary data can give is one we serve, under its own id', () => {
    const store = sharedTimezones();
    const ids = new Set<string>();
    for (let lat = -89; lat <= 89; lat += 2) for (let lon = -179; lon <= 179; lon += 2) for (const id of zonesAt(lat, lon)) ids.add(id);
    expect(ids.size).toBeGreaterThan(300);
    for (const id of ids) expect(store.resolve(id), id).toBe(id);
    expect(zoneAt(78.2232, 15.6267)).toBe('Arctic/Longyearbyen');
  });
});

describe('bad input (the rules of /v1/astronomy/…/coordinates)', () => {
  const cases: [string, string, string][] = [
    ['longitude=10', 'missing_parameter', 'latitude'],
    ['latitude=10', 'missing_parameter', 'longitude'],
    ['latitude=91&longitude=0', 'invalid_latitude', 'latitude'],
    ['latitude=-90.0001&longitude=0', 'invalid_latitude', 'latitude'],
    ['latitude=abc&longitude=0', 'invalid_latitude', 'latitude'],
    ['latitude=1e1&longitude=0', 'invalid_latitude', 'latitude'],
    ['latitude=&longitude=0', 'invalid_latitude', 'latitude'],
    ['latitude=0&longitude=180.5', 'invalid_longitude', 'longitude'],
    ['latitude=0&longitude=Infinity', 'invalid_longitude', 'longitude'],
    ['latitude=0&longitude=0x10', 'invalid_longitude', 'longitude'],
    ['latitude=1&latitude=2&longitude=0', 'duplicate_parameter', 'latitude'],
    ['latitude=0&longitude=0&at=2026-07-01', 'invalid_at', 'at'],
    ['latitude=0&longitude=0&at=1899-07-01T00:00:00Z', 'out_of_range', 'at'],
  ];
  for (const [q, code, parameter] of cases) {
    it(`?${q} → 400 ${code}`, async () => {
      const { status, body } = await getJson(app, `/v1/timezones/lookup?${q}`);
      expect(status).toBe(400);
      assertMatchesSchema('error.schema.json', body);
      expect(body.error).toMatchObject({ code, parameter });
    });
  }
  it('the edges answer: ±90, ±180, -0, a bare decimal point', async () => {
    for (const q of ['latitude=90&longitude=180', 'latitude=-90&longitude=-180', 'latitude=-0&longitude=-0', 'latitude=.5&longitude=5.']) {
      expect((await getJson(app, `/v1/timezones/lookup?${q}`)).status, q).toBe(200);
    }
  });
});

describe('the boundary release is recorded beside the tzdata release', () => {
  const read = <T>(p: string) => JSON.parse(readFileSync(join(DATA_DIR, 'v1', p), 'utf8')) as T;
  it('the installed geo-tz is the version whose release lib/geo-boundaries.ts records (PR #211: 8.1.9 carries 2026d)', () => {
    const root = join(dirname(createRequire(import.meta.url).resolve('geo-tz/all')), '..');
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version).toBe(BOUNDARIES.package_version);
  });

  it('the manifest and attribution.json name both, with the ODbL', () => {
    const manifest = read<Manifest>('manifest.json');
    expect(manifest.timezone_boundaries).toEqual({
      source: 'timezone-boundary-builder', release: BOUNDARIES.release, license: 'ODbL-1.0', package: 'geo-tz', package_version: BOUNDARIES.package_version,
      tzdata_version: manifest.sources.tzdata.version, aliases: {}, zones_without_boundaries: [],
    });
    expect(manifest.sources['timezone-boundary-builder']).toEqual({ version: BOUNDARIES.release, license: 'ODbL-1.0' });
    const sources = read<Attribution>('attribution.json').sources;
    expect(sources.find((s) => s.name === 'timezone-boundary-builder')).toMatchObject({ version: BOUNDARIES.release, license: 'ODbL-1.0', attribution: expect.stringContaining('OpenStreetMap contributors') });
    expect(sources.find((s) => s.name === 'geo-tz')).toMatchObject({ version: BOUNDARIES.package_version, license: 'MIT' });
  });
});

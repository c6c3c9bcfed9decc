/**
 * Builds dist-data/v1 from sources/ and the pinned data packages.
 * Writes into a staging folder, validates every file against schemas/, and
 * only then swaps the folder into place; nothing invalid is ever published.
 * No wall-clock time enters the data: the same inputs give the same bytes.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { spawn } from 'node:child_process';
import { FIRST_YEAR, LAST_YEAR, TZ_FIRST_YEAR, TZ_LAST_YEAR } from './config.js';
import { progress, step } from './progress.js';
import { stableJson } from '../lib/stable-json.js';
import { clipToWindow, listTargets, yearsAround, type IngestedLocation, type Target } from './stages/ingest-holidays.js';
import { cldrVersion, loadOverrides, workweeksFor } from './stages/ingest-workweeks.js';
import { applyRules, checkRulesUsed, describeDayTypes } from './stages/apply-rules.js';
import { applyCorrections, checkAllUsed } from './stages/apply-corrections.js';
import { loadCuration, type CorrectionRow, type RuleRow, type SourceRow } from './stages/holidays/curation.js';
import { emitBusinessDays, type LocationData } from './stages/emit-business-days.js';
import { loadOfficial } from './stages/official/index.js';
import { applyOfficial } from './stages/apply-official.js';
import { ingestPythonTarget, pythonTargets, PythonHolidays } from './stages/ingest-python-holidays.js';
import { corroborate } from './stages/corroborate.js';
import { applySources, checkSourcesUsed } from './stages/apply-sources.js';
import { isWorkday, workweekSpans } from '../lib/workweek.js';
import { parseDate } from '../lib/plain-date.js';
import { createAjv, validateFiles } from './stages/validate.js';
import { checkSources } from './stages/check-sources.js';
import { inputsDigest, writeInputsStamp } from './inputs.js';
import { checkBoundaries, ingestTimezones, readBoundaryZones, readZoneTab, tzdataVersion } from './stages/ingest-timezones.js';
import { BOUNDARIES } from '../lib/geo-boundaries.js';
import { countryAttribution, ingestCountries, largestCountries, listIsoCountries } from './stages/ingest-countries.js';
import { ingestSeats, readTzLinks, seatAttribution } from './stages/ingest-seats.js';
import { ingestCapitalZones, nameLocations } from './stages/name-locations.js';
import { emitCountries } from './stages/emit-countries.js';
import { ingestPower } from './stages/ingest-power.js';
import { ingestClimate, ingestRegionalClimate, loadClimateSources } from './stages/ingest-climate.js';
import { emitTravel } from './stages/emit-travel.js';
import { emitAstronomyPlaces } from './stages/emit-astronomy-places.js';
import { emitTimezones } from './stages/emit-timezones.js';
import { emitManifest } from './stages/emit-manifest.js';
import { emitReadme, fileFigures, travelFigures } from './stages/emit-readme.js';
import { bulkInWorker } from './bulk-run.js';
import { emitIcs } from './stages/emit-ics.js';
import type { Attribution, Country, TravelIndex } from '../lib/schema-types.js';

const ROOT = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const versionOf = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version;

async function ingestAll(targets: Target[], years: number[]): Promise<IngestedLocation[]> {
  const bar = progress('ingest holidays', targets.length);
  const workers = Math.max(1, Math.min(2, Number(process.env.BUILD_WORKERS ?? 2)));
  const slices: Target[][] = Array.from({ length: workers }, () => []);
  targets.forEach((t, i) => slices[i % workers].push(t));
  const results: IngestedLocation[] = [];
  await Promise.all(
    slices.map(
      (slice) =>
        new Promise<void>((resolve, reject) => {
          const w = new Worker(new URL('./ingest-worker.mjs', import.meta.url), { workerData: { targets: slice, years } });
          w.on('message', (m: IngestedLocation) => {
            results.push(m);
            bar.tick();
          });
          w.on('error', reject);
          w.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ingest worker exited with ${code}`))));
        }),
    ),
  );
  return results.sort((a, b) => (a.target.location < b.target.location ? -1 : 1));
}

/** Every curated holiday row must name a location we serve: a typo would otherwise apply to nothing, silently. */
function checkCuratedLocations(codes: { code: string; where: string }[], targets: Target[]): void {
  const known = new Set(targets.map((t) => t.location));
  for (const { code, where } of codes) if (!known.has(code)) throw new Error(`${where}: unknown location ${code} (not a location date-holidays or python-holidays knows)`);
}

/** ISO 3166-1 countries neither source has holidays for (places with no population of their own), under the countries area's names. */
function countriesWithoutData(targets: Target[], countries: Country[]) {
  const known = new Set(targets.map((t) => t.location));
  return countries.filter((c) => !known.has(c.code)).map((c) => ({ location: c.code, name: c.name }));
}

type SourceEntry = Attribution['sources'][number] & { /** Its key in manifest.json's sources, for those the dataset version is made of. */ manifest?: string };

/** The one list of sources: attribution.json lists them all, manifest.json's sources those with a `manifest` key. */
function sourceList(tzdata: string, officialVersions: Record<string, string>, pythonVersion: string): { dataset_license: string; sources: SourceEntry[] } {
  return {
    dataset_license: 'Data: CC BY-SA 3.0 (inherited from date-holidays); curated tables in sources/: CC0-1.0; code: MIT',
    sources: [
      { manifest: 'date-holidays', name: 'date-holidays', version: versionOf('date-holidays'), url: 'https://github.com/commenthol/date-holidays', license: 'ISC (code), CC BY-SA 3.0 (data)', attribution: 'Holiday data: date-holidays by commenthol and contributors, CC BY-SA 3.0.', used_for: 'public and bank holidays; the names and time zones of its own sub-region codes (and of places no other source covers)' },
      { manifest: 'python-holidays', name: 'python-holidays', version: pythonVersion, url: 'https://github.com/vacanza/holidays', license: 'MIT', attribution: 'Holiday data: python-holidays (vacanza/holidays) by its contributors, MIT License.', used_for: 'public, bank and government holidays of the countries date-holidays does not cover; the second source every other location is corroborated against (sources/python-holidays/)' },
      { manifest: 'cldr-core', name: 'cldr-core', version: versionOf('cldr-core'), url: 'https://github.com/unicode-org/cldr-json', license: 'Unicode-3.0', attribution: 'Workweek data: Unicode CLDR, Unicode License v3.', used_for: 'weekend days per territory' },
      { manifest: 'cldr-subdivisions-full', name: 'cldr-subdivisions-full', version: versionOf('cldr-subdivisions-full'), url: 'https://github.com/unicode-org/cldr-json', license: 'Unicode-3.0', attribution: 'English subdivision names: Unicode CLDR, Unicode License v3.', used_for: 'English names of ISO 3166-2 subdivisions (countries, business days), with reviewed corrections in sources/countries/subdivision-names.csv' },
      { manifest: 'tzdata', name: 'tz database (tzdata)', version: tzdata, url: 'https://www.iana.org/time-zones', license: 'public domain', attribution: `Time zone data: the IANA tz database (public domain), release ${tzdata}.`, used_for: 'time zones: offsets, transitions, abbreviations, links, countries' },
      { manifest: 'timezone-boundary-builder', name: 'timezone-boundary-builder', version: BOUNDARIES.release, url: BOUNDARIES.url, license: BOUNDARIES.license, attribution: BOUNDARIES.attribution, used_for: 'GET /v1/timezones/lookup: the time zone at a point (answered by the API; the polygons are not in the dataset files)' },
      { manifest: 'geo-tz', name: 'geo-tz', version: BOUNDARIES.package_version, url: 'https://github.com/evansiroky/node-geo-tz', license: 'MIT', attribution: 'Point-in-polygon search over the time zone boundaries: geo-tz by Evan Siroky, MIT.', used_for: 'GET /v1/timezones/lookup (carries the timezone-boundary-builder release)' },
      { manifest: '@vvo/tzdb', name: '@vvo/tzdb', version: versionOf('@vvo/tzdb'), url: 'https://github.com/vvo/tzdb', license: 'MIT', attribution: 'Time zone names: @vvo/tzdb by Vincent Voyer and contributors, MIT.', used_for: 'generic English time zone names' },
      { manifest: 'REST Countries', name: 'REST Countries', version: 'bfadee4f951682c29970e53677707bc558e80b74', url: 'https://gitlab.com/restcountries/restcountries', license: 'MPL-2.0', attribution: 'Country data: REST Countries (restcountries.com), Mozilla Public License 2.0.', used_for: 'ISO 3166-1 country list, names, capitals, languages, currency names, borders, ccTLDs, calling codes, driving side' },
      ...countryAttribution().map((e): SourceEntry => (e.name === 'Debian iso-codes' ? { manifest: 'iso-codes', ...e } : e)),
      ...seatAttribution(),
      { name: 'fluids (residential power)', version: '05c97f78ff48a3a337dcaaf2ab6119ee46eff206', url: 'https://github.com/CalebBell/fluids', license: 'MIT', attribution: 'Plug types, voltage and frequency: fluids (Caleb Bell), MIT License, derived from Wikipedia (2016/2017).', used_for: 'plug types, mains voltage and frequency' },
      { name: 'Android emergency numbers (eccdata)', version: 'sources/travel/android-ecc', url: 'https://android.googlesource.com/platform/packages/services/Telephony', license: 'Apache-2.0', attribution: 'Emergency numbers: Android Open Source Project (packages/services/Telephony, ecc/input/eccdata.txt), Copyright The Android Open Source Project, Apache License 2.0.', used_for: 'police, ambulance and fire numbers' },
      { name: 'KDE Itinerary country data (Wikidata)', version: 'sources/travel/kitinerary-wikidata', url: 'https://invent.kde.org/pim/kitinerary', license: 'CC0-1.0', attribution: 'Data from Wikidata (CC0), via KDE Itinerary.', used_for: 'cross-check of plug types (nothing published from it)' },
      { name: 'WMO Climatological Standard Normals 1991-2020', version: '59660ef6e3d8d6ff8aa1b7afd88fc3a53fbf3fc5', url: 'https://www.ncei.noaa.gov/products/wmo-climate-normals', license: 'WMO data policy (free and unrestricted exchange; attribution)', attribution: "Climate normals: WMO Climatological Standard Normals 1991-2020, computed by WMO Members' national meteorological services; distributed by WMO and NOAA NCEI (World Data Service for Meteorology).", used_for: 'monthly climate normals' },
      { name: 'refdata travel overrides', version: 'sources/travel/*.csv, sources/climate/station-choices.csv', url: 'sources/travel/', license: 'CC0-1.0', attribution: 'Power, emergency-number and station choices curated by refdata, each row citing its source.', used_for: 'gaps and corrections in power and emergency facts, regional power facts, climate station choices' },
      { name: 'refdata holiday curation', version: 'sources/holidays/*/', url: 'sources/holidays/', license: 'CC0-1.0 (our rows); the calendars derived from date-holidays with them are CC BY-SA 3.0 (share-alike)', attribution: 'Holiday rules, corrections, official schedules and workweek changes curated by refdata, one folder per country, each row citing its act (sources/holidays/<CC>/citations.csv).', used_for: 'rules and corrections to date-holidays, transferred days off, working days, announced holiday dates, banking and government closure rules, dated workweek changes' },
      { manifest: 'chinese-days', name: 'chinese-days', version: officialVersions['chinese-days'], url: 'https://github.com/vsme/chinese-days', license: 'MIT', attribution: "China's holiday schedules: chinese-days by vsme, MIT, transcribed from the State Council General Office's annual notices (cited per year).", used_for: 'China: days off, days off in lieu and make-up working days, 2004 onward' },
      { manifest: 'holiday-calendar', name: 'holiday-calendar', version: officialVersions['holiday-calendar'], url: 'https://github.com/cg-zhou/holiday-calendar', license: 'MIT', attribution: 'China cross-check: holiday-calendar by cg-zhou, MIT.', used_for: 'independent cross-check of the China schedules (nothing published from it)' },
      { manifest: '@hyunbinseo/holidays-kr', name: '@hyunbinseo/holidays-kr', version: officialVersions['@hyunbinseo/holidays-kr'], url: 'https://github.com/hyunbinseo/holidays-kr', license: 'MIT', attribution: "South Korea's public holidays: @hyunbinseo/holidays-kr by Hyunbin Seo, MIT, from the official gazette.", used_for: 'South Korea: public, substitute and temporary holidays and election days, 2018 onward' },
      { manifest: 'japanese-public-holidays', name: 'japanese-public-holidays', version: officialVersions['japanese-public-holidays'], url: 'https://www8.cao.go.jp/chosei/shukujitsu/gaiyou.html', license: 'MIT (package); the list is the Cabinet Office of Japan\'s', attribution: "Japan's national holidays: Cabinet Office of Japan, 国民の祝日について (syukujitsu.csv), via the npm package japanese-public-holidays (MIT).", used_for: 'Japan: national, substitute and citizens\' holidays' },
      { manifest: 'DGPA office calendar', name: 'DGPA office calendar (Taiwan)', version: 'sources/holidays/TW/dgpa (2017-2025)', url: 'https://data.gov.tw/dataset/14718', license: 'Open Government Data License 1.0; re-encoded files CC BY 4.0', attribution: '政府資料開放平台 (data.gov.tw): 行政院人事行政總處 中華民國政府行政機關辦公日曆表; re-encoded by ruyut/TaiwanCalendar, CC BY 4.0.', used_for: 'Taiwan: days off and make-up working days of government offices, 2017-2025' },
    ],
  };
}

/** attribution.json: every source, as the schema has it. */
function attribution(list: ReturnType<typeof sourceList>): Attribution {
  return { dataset_license: list.dataset_license, sources: list.sources.map(({ manifest: _key, ...entry }) => entry) };
}

/** manifest.json's sources: name → version and license. */
function manifestSources(list: ReturnType<typeof sourceList>): Record<string, { version: string; license: string }> {
  return Object.fromEntries(list.sources.filter((e) => e.manifest).map((e) => [e.manifest!, { version: e.version, license: e.license }]));
}

/** Writes every file under a staging folder, then swaps it in for outDir/v1. */
function publish(outDir: string, serialized: Map<string, string | Uint8Array>, onFile: () => void = () => {}): void {
  const staging = join(outDir, `.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  const made = new Set<string>();
  for (const [path, text] of serialized) {
    const file = join(staging, 'v1', path);
    const dir = dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(file, text);
    onFile();
  }
  const live = join(outDir, 'v1');
  const previous = join(outDir, `.previous-${process.pid}`);
  if (existsSync(live)) renameSync(live, previous);
  renameSync(join(staging, 'v1'), live);
  rmSync(staging, { recursive: true, force: true });
  if (existsSync(previous)) removeInBackground(outDir, previous);
}

/**
 * Deletes a replaced dataset without making the build wait: 140,000 unlinks take over a minute on
 * this machine's disk. The folder is renamed `.trash-<pid>` (so a later build knows it is garbage
 * even if the deleting process dies) and removed by a detached `rm -rf`.
 */
function removeInBackground(outDir: string, dir: string): void {
  const trash = join(outDir, `.trash-${process.pid}-${Date.now()}`);
  renameSync(dir, trash);
  spawn('rm', ['-rf', trash], { detached: true, stdio: 'ignore' }).unref();
}

/** Whether a process with this id still runs (EPERM: it does, under another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what builds killed while publishing left in outDir. A dead build's `.previous-<pid>` is the
 * last published dataset when it died between its two renames (v1 then missing): put it back, else drop it.
 * Folders of a running build (another process, or this one) are left alone.
 */
function cleanStaleBuilds(outDir: string): void {
  if (!existsSync(outDir)) return;
  for (const name of readdirSync(outDir).sort()) {
    const path = join(outDir, name);
    if (/^\.trash-\d+-\d+$/.test(name)) {
      // A replaced dataset whose background removal died or has not finished: remove it (again).
      removeInBackground(outDir, path);
      continue;
    }
    const m = /^\.(staging|previous)-(\d+)$/.exec(name);
    if (!m || Number(m[2]) === process.pid || isRunning(Number(m[2]))) continue;
    if (m[1] === 'previous' && !existsSync(join(outDir, 'v1')) && existsSync(join(path, 'v1'))) {
      renameSync(join(path, 'v1'), join(outDir, 'v1'));
      step(`restored ${join(outDir, 'v1')} from ${name}, left by a build that died while publishing`);
    } else step(`removed ${name}, left by a build that died`);
    rmSync(path, { recursive: true, force: true });
  }
}

export interface BuildOptions {
  outDir?: string;
  sourcesDir?: string;
}

export async function build({
  outDir = join(ROOT, 'dist-data'),
  sourcesDir = join(ROOT, 'sources'),
}: BuildOptions = {}): Promise<{ version: string; files: number; bytes: number }> {
  const started = Date.now();
  // Before anything else: a dead build's leftovers go even if this build then fails on its sources.
  cleanStaleBuilds(outDir);
  // Every source must match its lock before any stage reads it: a file cut at a line boundary parses cleanly.
  const pinned = checkSources(sourcesDir);
  const digest = inputsDigest(sourcesDir); // read before the build, so an edit during it makes the stamp stale
  const years = yearsAround(FIRST_YEAR, LAST_YEAR);
  step(`refdata build: ${FIRST_YEAR}-${LAST_YEAR}, date-holidays ${versionOf('date-holidays')}, cldr-core ${cldrVersion()}, ${pinned.files} source files match the lock`);
  // Curated tables first: a bad row fails the build before the long ingest.
  const holidaysDir = join(sourcesDir, 'holidays');
  const curation = loadCuration(holidaysDir);
  const overrides = loadOverrides(curation);
  const official = await loadOfficial(holidaysDir, curation, FIRST_YEAR);
  step(`sources/holidays: ${curation.citations.size} citations, ${curation.rules.length} rules, ${curation.corrections.length} corrections; official calendars: ${official.years.length} complete location-years, ${official.rows.length} rows`);
  const ph = new PythonHolidays(sourcesDir);
  const holidayTargets = listTargets();
  const firstZone = new Map<string, string>();
  for (const z of readZoneTab(sourcesDir)) if (!firstZone.has(z.country)) firstZone.set(z.country, z.id);
  const fromPython = pythonTargets(ph, new Set(holidayTargets.filter((t) => t.kind === 'country').map((t) => t.location)), new Set(curation.noPopulation.keys()), firstZone);
  step(`python-holidays ${ph.meta.version}: ${fromPython.filter((t) => t.kind === 'country').length} countries and ${fromPython.filter((t) => t.kind !== 'country').length} subdivisions date-holidays does not know; ${curation.noPopulation.size} places with no population of their own`);
  const targets = [...holidayTargets, ...fromPython];
  checkCuratedLocations(
    [...official.rows, ...official.years, ...curation.rules, ...curation.corrections, ...curation.sources].map((r) => ({ code: r.location, where: r.where })),
    targets,
  );
  const ingested = await ingestAll(holidayTargets, years);
  const pythonWorkingDays = new Map<string, ReturnType<typeof ingestPythonTarget>['workingDays']>();
  for (const t of fromPython) {
    const { loc, workingDays } = ingestPythonTarget(ph, t, years[0], years.at(-1)!);
    ingested.push(loc);
    pythonWorkingDays.set(t.location, workingDays);
  }
  ingested.sort((a, b) => (a.target.location < b.target.location ? -1 : 1));

  step('[corrections + rules + official calendars + workweeks]');
  const usedCorrections = new Set<CorrectionRow>();
  const usedRules = new Set<RuleRow>();
  const holidaySource = { 'date-holidays': `date-holidays ${versionOf('date-holidays')}`, 'python-holidays': ph.label };
  const usedSources = new Set<SourceRow>();
  const pythonYears = new Map<string, Set<number>>();
  const curated = progress('curation', ingested.length);
  for (const loc of ingested) {
    curated.tick();
    pythonYears.set(loc.target.location, applySources(loc, curation.sources, ph, years, usedSources));
    applyCorrections(loc, curation.corrections, usedCorrections, 'edits');
    applyRules(loc, curation.rules, years, usedRules, ph);
    applyCorrections(loc, curation.corrections, usedCorrections, 'deriving');
  }
  checkAllUsed(curation.corrections, usedCorrections);
  checkRulesUsed(curation.rules, usedRules);
  checkSourcesUsed(curation.sources, usedSources);
  const countryRows = new Map(ingested.filter((l) => l.target.kind === 'country').map((l) => [l.target.location, [...l.holidays]]));
  const windowYears = years.filter((y) => y >= FIRST_YEAR && y <= LAST_YEAR);
  let corroboratedYears = 0;
  let corroboratedRows = 0;
  const checked = progress('official calendars + corroboration', ingested.length);
  const locations: LocationData[] = ingested.map((loc) => {
    checked.tick();
    const workweeks = workweeksFor(loc.target.location, overrides);
    const spans = workweekSpans(workweeks);
    const basis = applyOfficial(loc, official, spans, windowYears, countryRows.get(loc.target.country.toUpperCase()) ?? [], curation.citations);
    // python-holidays' make-up working days (decreed transfers) where no official schedule gives the year's.
    for (const w of pythonWorkingDays.get(loc.target.location) ?? []) {
      const b = basis.get(Number(w.date.slice(0, 4)));
      if (b && b.basis === 'rules' && !isWorkday(spans, parseDate(w.date)!) && !b.workingDays.some((x) => x.date === w.date)) b.workingDays.push(w);
    }
    const rebased = pythonYears.get(loc.target.location) ?? new Set<number>();
    const c = corroborate(ph, loc, spans, basis, rebased);
    corroboratedYears += c.years;
    corroboratedRows += c.rows;
    const fromPythonYears = [...rebased].filter((y) => y >= FIRST_YEAR && y <= LAST_YEAR).sort((a, b) => a - b);
    const source = fromPythonYears.length
      ? `${holidaySource['date-holidays']}, ${ph.label} in ${fromPythonYears[0]}-${fromPythonYears.at(-1)} (sources/holidays/${loc.target.country}/sources.csv)`
      : holidaySource[loc.target.source];
    const dayTypes = describeDayTypes(loc, curation.rules, source);
    loc.holidays = clipToWindow(loc.holidays, FIRST_YEAR, LAST_YEAR);
    return { loc, workweeks, dayTypes, basis };
  });

  step(`[corroborate] ${corroboratedYears} location-years and ${corroboratedRows} holiday rows agree with ${ph.label}`);
  const files = new Map<string, unknown>();

  const tzdata = tzdataVersion(sourcesDir);
  const zoneTab = readZoneTab(sourcesDir);
  step(`[timezones] tzdata ${tzdata}`);
  const zones = ingestTimezones(sourcesDir, Date.UTC(TZ_FIRST_YEAR, 0, 1) / 1000, Date.UTC(TZ_LAST_YEAR + 1, 0, 1) / 1000);
  for (const [path, doc] of emitTimezones(zones)) files.set(path, doc);
  const boundaries = checkBoundaries(zones, readBoundaryZones(BOUNDARIES.package_version));

  const seats = await ingestSeats(sourcesDir, step);
  const largest = largestCountries(sourcesDir, 10);
  step('[countries]');
  const zonesByCountry: Record<string, string[]> = {};
  for (const z of zoneTab) (zonesByCountry[z.country] ??= []).push(z.id);
  const countries = ingestCountries(sourcesDir, {
    timezones: zonesByCountry,
    workweeks: Object.fromEntries(listIsoCountries(sourcesDir).map((code) => [code, workweeksFor(code, overrides).at(-1)!.workweek])),
    businessDayLocations: new Set(locations.map((l) => l.loc.target.location)),
    seats: seats.seats,
  });
  for (const [path, doc] of emitCountries(countries)) files.set(path, doc);

  // One name and zone per location in every area (name-locations.ts); business days are emitted with them.
  const capitals = await ingestCapitalZones(countries, zoneTab, readTzLinks(sourcesDir));
  const identities = nameLocations(targets, countries, capitals);
  const renamed = targets.filter((t) => identities.get(t.location)!.name !== t.name).length;
  const rezoned = targets.filter((t) => identities.get(t.location)!.timezone !== t.timezone).length;
  step(`[business days] ${targets.length} locations; ${renamed} names and ${rezoned} time zones differ from date-holidays'`);
  for (const [path, doc] of emitBusinessDays(locations, countriesWithoutData(targets, countries), FIRST_YEAR, LAST_YEAR, identities)) files.set(path, doc);

  step('[travel] plugs and voltages');
  const power = ingestPower(sourcesDir);
  step('[travel] climate normals of the capitals');
  const climateSources = loadClimateSources(sourcesDir);
  const climate = ingestClimate(climateSources, Object.fromEntries(countries.map((c) => [c.code, c.capital])));
  step('[travel] climate stations of the regions');
  const regional = ingestRegionalClimate(climateSources, seats.seats);
  step('[travel] a document for every country and region');
  for (const [path, doc] of emitTravel(countries, power, climate, { regional, seats, largest })) files.set(path, doc);
  const { coverage } = files.get('travel/index.json') as TravelIndex;
  const per = (key: 'with_seat' | 'with_station') => coverage.largest_countries.map((c) => `${c.country} ${c[key]}/${c.subdivisions}`).join(', ');
  step(`[seats] ${coverage.seats.with_seat} of ${coverage.seats.subdivisions} subdivisions have a seat (${((100 * coverage.seats.with_seat) / coverage.seats.subdivisions).toFixed(1)}%); largest countries: ${per('with_seat')}`);
  step(`[climate] ${coverage.regional_climate.with_station} of ${coverage.regional_climate.regions} regions have a station within ${coverage.regional_climate.max_distance_km} km of their seat; largest countries: ${per('with_station')}`);
  for (const [path, doc] of emitAstronomyPlaces(countries, capitals, zoneTab)) files.set(path, doc);
  const sourcesList = sourceList(tzdata, official.versions, ph.meta.version);
  files.set('attribution.json', attribution(sourcesList));

  const ajv = createAjv();
  const validated = progress('validate', files.size);
  validateFiles(files, ajv, () => validated.tick());

  // The bulk tables are read from the validated documents above, so they cannot disagree with the JSON files;
  // a worker builds them (and the SQLite file) while this thread writes the JSON and iCalendar texts.
  const bulkStarted = Date.now();
  const bulkProgress = { tables: 'starting', sqlite: 'starting' };
  const bulkDone = bulkInWorker(files, bulkProgress, (sent, total) => step(`[bulk] ${sent} of ${total} documents handed to the bulk worker`));
  const serialized = new Map<string, string | Uint8Array>();
  const written = progress('serialize', files.size);
  for (const path of [...files.keys()].sort()) {
    serialized.set(path, stableJson(files.get(path)));
    written.tick();
  }
  // iCalendar feeds from the same validated year documents (lib/icalendar.ts, shared with the API).
  const yearFiles = [...files.keys()].filter((p) => /^business-days\/[^/]+\/\d{4}\.json$/.test(p)).length;
  const feeds = progress('ics', yearFiles);
  const ics = emitIcs(files, () => feeds.tick());
  for (const [path, text] of ics) serialized.set(path, text);
  step(`[ics] ${ics.size} calendar files`);
  // The workers report what they are doing; while this thread waits for them, say it every 3 s.
  const waiting = setInterval(() => step(`[bulk] tables: ${bulkProgress.tables}; sqlite: ${bulkProgress.sqlite}`), 3000);
  const bulk = await bulkDone.finally(() => clearInterval(waiting));
  for (const [path, data] of bulk.files) serialized.set(path, data);
  step(`[bulk] ${bulk.tables} tables, ${bulk.files.size} files in ${((Date.now() - bulkStarted) / 1000).toFixed(1)}s`);
  const counts = {
    locations: locations.length,
    countries: locations.filter((l) => l.loc.target.kind === 'country').length,
    states: locations.filter((l) => l.loc.target.kind === 'state').length,
    regions: locations.filter((l) => l.loc.target.kind === 'region').length,
    no_holiday_data: (files.get('business-days/index.json') as { no_holiday_data: unknown[] }).no_holiday_data.length,
    holiday_rows: locations.reduce((n, l) => n + l.loc.holidays.length, 0),
    first_year: FIRST_YEAR,
    last_year: LAST_YEAR,
    timezones: zones.filter((z) => z.country).length,
    timezones_outside_zone_tab: zones.filter((z) => !z.country).length,
    iso_countries: countries.length,
    subdivisions: countries.reduce((n, c) => n + c.subdivisions.length, 0),
    travel_destinations: [...files.keys()].filter((p) => /^travel\/[A-Z]{2}\.json$/.test(p)).length,
    travel_regions: [...files.keys()].filter((p) => /^travel\/[A-Z]{2}-[A-Z0-9]+\.json$/.test(p)).length,
    climate_stations: Object.keys(climate).length,
    timezone_aliases: zones.reduce((n, z) => n + (z.country ? z.aliases.length : 0), 0),
    official_location_years: locations.reduce((n, l) => n + [...l.basis.values()].filter((b) => b.basis === 'official').length, 0),
    corroborated_location_years: locations.reduce((n, l) => n + [...l.basis.values()].filter((b) => b.basis === 'corroborated').length, 0),
    working_days: locations.reduce((n, l) => n + [...l.basis.values()].reduce((m, b) => m + b.workingDays.length, 0), 0),
  };
  const sources = manifestSources(sourcesList);
  // The README is part of the content (the manifest hashes it), so it holds no version: only counts and sources.
  // Aliases of every zone served, zone.tab's and the others' (counts.timezone_aliases has zone.tab's alone).
  const timezoneLinks = zones.reduce((n, z) => n + z.aliases.length, 0);
  serialized.set('README.md', emitReadme({ ...counts, tzdata, timezone_links: timezoneLinks, ...fileFigures(serialized), ...travelFigures(coverage) }));
  const { source, release, license, package: pkg, package_version } = BOUNDARIES;
  const hashed = progress('manifest', serialized.size);
  const manifest = emitManifest(serialized, sources, counts, { source, release, license, package: pkg, package_version, tzdata_version: tzdata, ...boundaries }, () => hashed.tick());
  validateFiles([['manifest.json', manifest]], ajv);
  serialized.set('manifest.json', stableJson(manifest));

  step(`[publish] ${serialized.size} files`);
  rmSync(join(outDir, '.inputs'), { force: true }); // no moment where a stamp names another dataset's inputs
  const published = progress('publish', serialized.size);
  publish(outDir, serialized, () => published.tick());
  writeInputsStamp(outDir, digest);
  const bytes = [...serialized.values()].reduce((n, t) => n + Buffer.byteLength(t), 0);
  step(`built dataset ${manifest.version}: ${serialized.size} files, ${(bytes / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return { version: manifest.version, files: serialized.size, bytes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  build({ outDir: process.argv[2] }).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

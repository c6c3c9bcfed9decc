/**
 * Stage: one Country per ISO 3166-1 code (249: the iso-codes list, so not XK),
 * from REST Countries, with ISO 3166-2 subdivisions from Debian iso-codes (each with
 * its seat from the caller, pipeline/stages/ingest-seats.ts),
 * current currencies and the primary language from CLDR, and the cited fixes
 * of sources/countries/corrections.csv. Time zones, workweeks and business-day
 * coverage come from the caller. Fails closed: a code that disagrees between
 * sources, a value no rule covers, or a correction that no longer matches
 * upstream stops the build.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Attribution, Country, CountryCapital, CountryCurrency, CountryLanguage, SubdivisionSeat, Workweek } from '../../lib/schema-types.js';
import { checkUrl, readCsv } from './read-csv.js';

export interface CountryInputs {
  /** alpha-2 -> canonical IANA zones, in zone.tab order. */
  timezones: Record<string, string[]>;
  /** alpha-2 -> the workweek in force today. */
  workweeks: Record<string, Workweek>;
  /** Locations with holiday data (GET /v1/business-days/{code} answers). */
  businessDayLocations: Set<string>;
  /** ISO 3166-2 code -> its seat (pipeline/stages/ingest-seats.ts); a code not in the map has seat null. */
  seats?: Map<string, SubdivisionSeat | null>;
}

interface RcCountry {
  cca2: string;
  cca3: string;
  ccn3?: string;
  name: { common: string; official: string };
  independent?: boolean;
  region: string;
  area?: number;
  continents: string[];
  capital?: string[];
  capitalInfo?: { latlng?: number[] };
  currencies?: Record<string, { name: string; symbol?: string }>;
  languages?: Record<string, string>;
  borders?: string[];
  tld?: string[];
  idd: { root?: string; suffixes?: string[] };
  car: { side: string };
}

type Field = 'language' | 'capital' | 'phone_code';
interface Correction {
  country: string;
  field: Field;
  upstream: string;
  corrected: string;
  where: string;
}
interface CurrencyName {
  code: string;
  name: string;
  symbol: string;
  where: string;
}
type LanguagePopulation = Record<string, { _populationPercent?: string; _officialStatus?: string }>;
type CldrCurrencies = Record<string, Record<string, { _from?: string; _to?: string; _tender?: string }>[]>;

export interface CountrySources {
  restcountries: RcCountry[];
  iso3166_1: { alpha_2: string; alpha_3: string; numeric: string }[];
  iso3166_2: { code: string; name: string; type: string }[];
  /** CLDR's English subdivision names, by CLDR's key (the ISO code in lower case without its hyphen: esct). */
  cldrSubdivisionNames: Record<string, string>;
  /** Reviewed corrections of CLDR's English names (sources/countries/subdivision-names.csv). */
  subdivisionNames: { code: string; cldr: string; name: string; where: string }[];
  /** ISO 639-2 (terminology) code -> ISO 639-1 code, where one exists. */
  iso639_1: Map<string, string>;
  corrections: Correction[];
  currencyNames: CurrencyName[];
  cldrLanguages: Record<string, { languagePopulation?: LanguagePopulation }>;
  cldrCurrencies: CldrCurrencies;
  cldrLanguageAlias: Record<string, { _replacement: string }>;
}

const require = createRequire(import.meta.url);
const readJson = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;
const CONTINENTS = new Set(['Africa', 'Antarctica', 'Asia', 'Europe', 'North America', 'Oceania', 'South America']);
const FIELDS = new Set<Field>(['language', 'capital', 'phone_code']);
const PHONE_RE = /^\+[1-9]\d{0,2}( \d{1,4})?$/;

/** A curated table of sources/countries/: every row gives a reason and cites a source URL. */
function readCurated(path: string, header: string): (Record<string, string> & { where: string })[] {
  return readCsv(path, header).map(({ row, where }) => {
    checkUrl(row.source, where);
    if (!row.reason) throw new Error(`${where}: every row needs a reason`);
    return { ...row, where };
  });
}

/** Reads every file the stage uses; everything after this is pure. */
export function loadCountrySources(sourcesDir: string): CountrySources {
  const dir = join(sourcesDir, 'countries');
  const corrections = readCurated(join(dir, 'corrections.csv'), 'country,field,upstream,corrected,reason,source').map((r) => {
    if (!/^[A-Z]{2}$/.test(r.country) || !FIELDS.has(r.field as Field)) throw new Error(`${r.where}: bad country or field`);
    return { country: r.country, field: r.field as Field, upstream: r.upstream, corrected: r.corrected, where: r.where };
  });
  const currencyNames = readCurated(join(dir, 'currency-names.csv'), 'code,name,symbol,reason,source').map((r) => {
    if (!/^[A-Z]{3}$/.test(r.code) || !r.name || !r.symbol) throw new Error(`${r.where}: needs code, name and symbol`);
    return { code: r.code, name: r.name, symbol: r.symbol, where: r.where };
  });
  const subdivisionNames = readCurated(join(dir, 'subdivision-names.csv'), 'code,cldr,name,reason,source').map((r) => {
    if (!/^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(r.code) || !r.cldr || !r.name) throw new Error(`${r.where}: needs an ISO 3166-2 code, CLDR's name and the name`);
    return { code: r.code, cldr: r.cldr, name: r.name, where: r.where };
  });
  const iso639 = readJson<{ '639-2': { alpha_2?: string; alpha_3: string }[] }>(join(dir, 'iso-codes', 'iso_639-2.json'))['639-2'];
  return {
    restcountries: readJson<{ countries: RcCountry[] }>(join(dir, 'restcountries', 'countries-v3.1.json')).countries,
    iso3166_1: readJson<{ '3166-1': CountrySources['iso3166_1'] }>(join(dir, 'iso-codes', 'iso_3166-1.json'))['3166-1'],
    iso3166_2: readJson<{ '3166-2': CountrySources['iso3166_2'] }>(join(dir, 'iso-codes', 'iso_3166-2.json'))['3166-2'],
    iso639_1: new Map(iso639.filter((l) => l.alpha_2).map((l) => [l.alpha_3, l.alpha_2!])),
    corrections,
    currencyNames,
    cldrSubdivisionNames: require('cldr-subdivisions-full/subdivisions/en/en.json').subdivisions.localeDisplayNames.subdivisions,
    subdivisionNames,
    cldrLanguages: require('cldr-core/supplemental/territoryInfo.json').supplemental.territoryInfo,
    cldrCurrencies: require('cldr-core/supplemental/currencyData.json').supplemental.currencyData.region,
    cldrLanguageAlias: require('cldr-core/supplemental/aliases.json').supplemental.metadata.alias.languageAlias,
  };
}

/** Hands out the correction rows of each (country, field), checks they still match upstream, and that every row was used. */
class Corrector {
  private readonly used = new Set<Correction>();
  constructor(private readonly rows: Correction[]) {}

  rowsFor(country: string, field: Field): Correction[] {
    const found = this.rows.filter((r) => r.country === country && r.field === field);
    for (const r of found) this.used.add(r);
    return found;
  }

  /** The corrected value if a row exists (after checking its upstream), else undefined. */
  single(country: string, field: Field, upstream: string): string | undefined {
    const [row, extra] = this.rowsFor(country, field);
    if (extra) throw new Error(`${extra.where}: a second ${field} correction for ${country}`);
    if (!row) return undefined;
    if (row.upstream !== upstream) throw new Error(`${row.where}: upstream is now "${upstream}", not "${row.upstream}"; review the correction`);
    return row.corrected;
  }

  checkAllUsed(): void {
    const unused = this.rows.filter((r) => !this.used.has(r));
    if (unused.length) throw new Error(`corrections for unknown countries: ${unused.map((r) => r.where).join(', ')}`);
  }
}

/**
 * "+44" from REST Countries' idd. NANP members other than US and CA keep their
 * (first) area code after a space: "+1 268". Anything else the rule cannot
 * read (a code longer than three digits, several suffixes) throws, so it needs
 * a cited correction.
 */
export function phoneCode(code: string, idd: RcCountry['idd']): string | null {
  const root = idd.root ?? '';
  const suffixes = idd.suffixes ?? [];
  let phone: string;
  if (root === '') return null; // AQ, HM: no code of their own
  if (root === '+1') {
    if (code === 'US' || code === 'CA') return '+1';
    if (!/^\d{3}$/.test(suffixes[0] ?? '')) throw new Error(`${code}: NANP member without an area code`);
    phone = `+1 ${suffixes[0]}`;
  } else if (suffixes.length === 1) {
    phone = root + suffixes[0];
  } else if (suffixes.length > 1 && suffixes.every((s) => /^\d$/.test(s))) {
    phone = root; // +7: one code for RU and KZ, the suffixes are its number ranges
  } else {
    phone = '';
  }
  if (!PHONE_RE.test(phone)) throw new Error(`${code}: cannot read a calling code from ${JSON.stringify(idd)}; add a correction`);
  return phone;
}

/** The continent; a transcontinental country gets the one of its UN M49 region. */
function continentOf(c: RcCountry): Country['continent'] {
  const pick = c.continents.length > 1 ? (c.continents.find((x) => x === c.region) ?? c.continents[0]) : c.continents[0];
  if (!CONTINENTS.has(pick)) throw new Error(`${c.cca2}: unknown continent "${pick}"`);
  return pick as Country['continent'];
}

function capitalOf(c: RcCountry, fix: Corrector): CountryCapital | null {
  const latlng = c.capitalInfo?.latlng ?? [];
  const upstream = c.capital?.length ? `${c.capital[0]}|${latlng[0] ?? ''}|${latlng[1] ?? ''}` : '';
  const text = fix.single(c.cca2, 'capital', upstream) ?? upstream;
  if (text === '') return null;
  const [name, lat, lon] = text.split('|');
  if (!name || lat === undefined || lon === undefined || lat === '' || lon === '') throw new Error(`${c.cca2}: capital "${text}" has no coordinates; add a correction`);
  return { name, latitude: Number(lat), longitude: Number(lon) };
}

/** The most common value among the countries that list a key; ties go to independent states, then by code. */
function canonical<T>(entries: { country: RcCountry; value: T }[]): T {
  const counts = new Map<string, { value: T; n: number; best: RcCountry }>();
  for (const e of entries) {
    const k = JSON.stringify(e.value);
    const cur = counts.get(k);
    if (cur) cur.n++;
    else counts.set(k, { value: e.value, n: 1, best: e.country });
  }
  const rank = (x: { n: number; best: RcCountry }) => [x.n, x.best.independent ? 1 : 0] as const;
  return [...counts.values()].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    return rb[0] - ra[0] || rb[1] - ra[1] || (a.best.cca2 < b.best.cca2 ? -1 : 1);
  })[0].value;
}

/** Currency code -> one English name and symbol for every country using it. */
function currencyNames(src: CountrySources): Map<string, Omit<CountryCurrency, 'code'>> {
  const seen = new Map<string, { country: RcCountry; value: { name: string; symbol: string } }[]>();
  for (const c of [...src.restcountries].sort((a, b) => (a.cca2 < b.cca2 ? -1 : 1))) {
    for (const [code, v] of Object.entries(c.currencies ?? {})) {
      if (v.symbol) seen.set(code, [...(seen.get(code) ?? []), { country: c, value: { name: v.name, symbol: v.symbol } }]);
    }
  }
  const out = new Map([...seen].map(([code, list]) => [code, canonical(list)]));
  for (const row of src.currencyNames) {
    if (out.has(row.code)) throw new Error(`${row.where}: REST Countries now names ${row.code}; remove the row`);
    out.set(row.code, { name: row.name, symbol: row.symbol });
  }
  return out;
}

/** ISO 4217 currencies that are legal tender today in CLDR, in CLDR's order (the primary first). */
export function currentCurrencies(list: CldrCurrencies[string] | undefined): string[] {
  return (list ?? [])
    .map((o) => Object.entries(o)[0])
    .filter(([, v]) => v._to === undefined && v._tender !== 'false')
    .map(([code]) => code);
}

/**
 * The primary language among `codes`: CLDR's official (or de facto official)
 * language with the largest population share; then the largest share of any
 * status; then the first listed. Codes are matched through CLDR's aliases
 * (prs = fa in Afghanistan, cnr = sr in Montenegro).
 */
export function primaryLanguage(codes: string[], population: LanguagePopulation | undefined, alias: CountrySources['cldrLanguageAlias']): string | null {
  const base = (tag: string) => {
    const lang = tag.split(/[_-]/)[0];
    return alias[lang]?._replacement.split(/[_-]/)[0] ?? lang;
  };
  let best: { code: string; official: number; share: number } | undefined;
  for (const code of codes) {
    for (const [tag, v] of Object.entries(population ?? {})) {
      if (base(tag) !== base(code)) continue;
      const cand = { code, official: ['official', 'de_facto_official'].includes(v._officialStatus ?? '') ? 1 : 0, share: Number(v._populationPercent ?? 0) };
      if (!best || cand.official > best.official || (cand.official === best.official && (cand.share > best.share || (cand.share === best.share && cand.code < best.code)))) best = cand;
    }
  }
  return best?.code ?? codes[0] ?? null;
}

function languagesOf(c: RcCountry, src: CountrySources, names: Map<string, string>, fix: Corrector): CountryLanguage[] {
  const norm = (raw: string) => src.iso639_1.get(raw) ?? raw;
  const list = Object.entries(c.languages ?? {}).map(([raw, name]) => ({ raw, code: norm(raw), name }));
  for (const row of fix.rowsFor(c.cca2, 'language')) {
    const at = list.findIndex((l) => `${l.raw}:${l.name}` === row.upstream);
    if (row.upstream !== '' && at < 0) throw new Error(`${row.where}: ${c.cca2} no longer lists "${row.upstream}"; review the correction`);
    if (at >= 0) list.splice(at, 1);
    if (row.corrected === '') continue;
    const [code, name] = row.corrected.split(':');
    if (!/^[a-z]{2,3}$/.test(code) || !name || norm(code) !== code) throw new Error(`${row.where}: corrected value must be "code:Name" with the ISO 639-1 code where one exists`);
    if (list.some((l) => l.code === code)) throw new Error(`${row.where}: ${c.cca2} already lists ${code}; review the correction`);
    list.push({ raw: code, code, name });
  }
  return list.map((l) => ({ code: l.code, name: names.get(l.code) ?? l.name }));
}

/** Language code -> one English name for every country using it. */
function languageNames(src: CountrySources): Map<string, string> {
  const seen = new Map<string, { country: RcCountry; value: string }[]>();
  for (const c of [...src.restcountries].sort((a, b) => (a.cca2 < b.cca2 ? -1 : 1))) {
    for (const [raw, name] of Object.entries(c.languages ?? {})) {
      const code = src.iso639_1.get(raw) ?? raw;
      seen.set(code, [...(seen.get(code) ?? []), { country: c, value: name }]);
    }
  }
  return new Map([...seen].map(([code, list]) => [code, canonical(list)]));
}

/** Primary first, then by code. */
function primaryFirst<T extends { code: string }>(items: T[], primary: string | null): T[] {
  return [...items].sort((a, b) => (a.code === primary ? -1 : b.code === primary ? 1 : a.code < b.code ? -1 : 1));
}

/**
 * A subdivision's English name: CLDR's (its superscript digits, which tell apart two names spelled alike, cut
 * off: "Île-de-France²"), or a reviewed correction of it; undefined where CLDR has none (then ISO 3166-2's name
 * stands). ISO 3166-2 gives names in the local language or its romanisation ("Wien", "Catalunya [Cataluña]"):
 * they are the subdivision's `local_name`.
 */
function subdivisionEnglishNames(src: CountrySources): (code: string) => string | undefined {
  const cldrKey = (code: string) => code.replace('-', '').toLowerCase();
  const fixes = new Map<string, string>();
  for (const f of src.subdivisionNames) {
    // A correction holds only while CLDR still says what it corrects: a CLDR release that changes it is reviewed again.
    const cldr = src.cldrSubdivisionNames[cldrKey(f.code)];
    if (cldr !== f.cldr) throw new Error(`${f.where}: CLDR now names ${f.code} ${JSON.stringify(cldr)}, not ${JSON.stringify(f.cldr)}: review the row`);
    fixes.set(f.code, f.name);
  }
  return (code) => fixes.get(code) ?? src.cldrSubdivisionNames[cldrKey(code)]?.replace(/[\u00b9\u00b2\u00b3\u2070-\u2079]+$/u, '').trim();
}

export function buildCountries(src: CountrySources, inputs: CountryInputs): Country[] {
  const fix = new Corrector(src.corrections);
  const byCode = new Map(src.restcountries.map((c) => [c.cca2, c]));
  const alpha3To2 = new Map(src.restcountries.map((c) => [c.cca3, c.cca2]));
  const iso = new Set(src.iso3166_1.map((c) => c.alpha_2));
  const subdivisions = new Map<string, Country['subdivisions']>();
  const englishName = subdivisionEnglishNames(src);
  for (const s of src.iso3166_2) {
    const cc = s.code.slice(0, 2);
    if (!subdivisions.has(cc)) subdivisions.set(cc, []);
    subdivisions.get(cc)!.push({ code: s.code, name: englishName(s.code) ?? s.name, local_name: s.name, type: s.type, seat: inputs.seats?.get(s.code) ?? null });
  }
  const currencyName = currencyNames(src);
  const languageName = languageNames(src);

  const countries = [...src.iso3166_1].sort((a, b) => (a.alpha_2 < b.alpha_2 ? -1 : 1)).map((isoRow): Country => {
    const code = isoRow.alpha_2;
    const c = byCode.get(code);
    if (!c) throw new Error(`${code}: in ISO 3166-1 (iso-codes) but not in REST Countries`);
    if (c.cca3 !== isoRow.alpha_3 || c.ccn3 !== isoRow.numeric) throw new Error(`${code}: REST Countries has ${c.cca3}/${c.ccn3}, iso-codes ${isoRow.alpha_3}/${isoRow.numeric}`);
    const workweek = inputs.workweeks[code];
    if (!workweek) throw new Error(`${code}: no workweek given`);
    if (c.car.side !== 'left' && c.car.side !== 'right') throw new Error(`${code}: driving side "${c.car.side}"`);

    const currencyCodes = currentCurrencies(src.cldrCurrencies[code]);
    const currencies = currencyCodes.map((cur) => {
      const named = currencyName.get(cur);
      if (!named) throw new Error(`${code}: no name for currency ${cur}; add it to sources/countries/currency-names.csv`);
      return { code: cur, ...named };
    });
    const languages = languagesOf(c, src, languageName, fix);
    const primary = primaryLanguage(languages.map((l) => l.code), src.cldrLanguages[code]?.languagePopulation, src.cldrLanguageAlias);

    const neighbors = (c.borders ?? [])
      .map((a3) => {
        const a2 = alpha3To2.get(a3);
        if (!a2) throw new Error(`${code}: unknown border ${a3}`);
        return a2;
      })
      .filter((a2) => iso.has(a2)) // XK (Kosovo) is not ISO 3166-1
      .sort();

    const upstreamIdd = `${c.idd.root ?? ''}|${(c.idd.suffixes ?? []).join(' ')}`;
    const fixedPhone = fix.single(code, 'phone_code', upstreamIdd);
    const phone = fixedPhone === undefined ? phoneCode(code, c.idd) : fixedPhone || null;
    if (phone !== null && !PHONE_RE.test(phone)) throw new Error(`${code}: bad phone code "${phone}"`);

    const cctld = c.tld?.[0] ?? null;
    if (cctld !== null && !/^\.[a-z]{2}$/.test(cctld)) throw new Error(`${code}: bad ccTLD "${cctld}"`);
    const timezones = [...new Set(inputs.timezones[code] ?? [])];

    return {
      code,
      alpha3: isoRow.alpha_3,
      numeric: isoRow.numeric,
      name: c.name.common,
      official_name: c.name.official,
      continent: continentOf(c),
      capital: capitalOf(c, fix),
      currencies: primaryFirst(currencies, currencyCodes[0] ?? null),
      primary_currency: currencyCodes[0] ?? null,
      languages: primaryFirst(languages, primary),
      primary_language: primary,
      timezones,
      neighbors,
      cctld,
      phone_code: phone,
      driving_side: c.car.side as Country['driving_side'],
      workweek,
      subdivisions: (subdivisions.get(code) ?? []).sort((a, b) => (a.code < b.code ? -1 : 1)),
      links: {
        self: `/v1/countries/${code}`,
        timezones: timezones.map((z) => `/v1/timezones/${encodeURIComponent(z)}`),
        business_days: inputs.businessDayLocations.has(code) ? `/v1/business-days/${code}` : null,
      },
    };
  });
  fix.checkAllUsed();

  const listed = new Map(countries.map((c) => [c.code, new Set(c.neighbors)]));
  for (const c of countries) {
    for (const n of c.neighbors) if (!listed.get(n)?.has(c.code)) throw new Error(`${c.code} borders ${n} but not the reverse`);
  }
  return countries;
}

/**
 * The `count` largest countries by area (REST Countries' `area`, km²) among those with ISO 3166-2 subdivisions,
 * largest first: the countries the coverage reports break down (Antarctica has no subdivisions).
 */
export function largestCountries(sourcesDir: string, count: number): string[] {
  const src = loadCountrySources(sourcesDir);
  const withSubdivisions = new Set(src.iso3166_2.map((s) => s.code.slice(0, 2)));
  return src.restcountries
    .filter((c) => withSubdivisions.has(c.cca2) && typeof c.area === 'number')
    .sort((a, b) => b.area! - a.area! || (a.cca2 < b.cca2 ? -1 : 1))
    .slice(0, count)
    .map((c) => c.cca2);
}

/** The 249 ISO 3166-1 alpha-2 codes the stage builds (for the caller's workweek table). */
export function listIsoCountries(sourcesDir: string): string[] {
  return readJson<{ '3166-1': { alpha_2: string }[] }>(join(sourcesDir, 'countries', 'iso-codes', 'iso_3166-1.json'))['3166-1'].map((c) => c.alpha_2).sort();
}

export function ingestCountries(sourcesDir: string, inputs: CountryInputs): Country[] {
  return buildCountries(loadCountrySources(sourcesDir), inputs);
}

/** Entries for dist-data/v1/attribution.json (REST Countries and CLDR are already listed; extend their used_for). */
export function countryAttribution(): Attribution['sources'] {
  return [
    { name: 'Debian iso-codes', version: '4.18.0', url: 'https://salsa.debian.org/iso-codes-team/iso-codes', license: 'LGPL-2.1-or-later', attribution: 'ISO 3166 data: Debian iso-codes by Alastair McKinstry, Christian Perrier, Tobias Quathamer and contributors, LGPL 2.1 or later.', used_for: 'ISO 3166-2 subdivision codes, names and types; ISO 3166-1 code cross-check; ISO 639-1 codes' },
    { name: 'refdata country corrections', version: 'sources/countries/corrections.csv', url: 'sources/countries/', license: 'CC0-1.0', attribution: 'Corrections to REST Countries curated by refdata, each citing its source.', used_for: 'wrong language codes, capital coordinates and calling codes; names of new currencies' },
  ];
}

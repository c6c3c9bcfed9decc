/**
 * Stage: power (plugs, voltage, frequency) and emergency numbers per ISO
 * 3166-1 code, plus the ISO 3166-2 regions whose power differs from their
 * country (Japan's frequency, Brazil's voltage). Reads sources/travel/:
 *
 * - fluids-power/residential-power.tsv: 202 codes (Malta mis-coded `np`);
 * - android-ecc/eccdata.json: a phone dialer's emergency table, in which the
 *   GSM numbers 112/911 sit beside the national ones;
 * - power-overrides.csv, region-overrides.csv, emergency-overrides.csv: our
 *   curated rows, each citing a source URL (see sources/travel/SOURCE.md).
 *
 * Fails closed: a malformed row, a row without a source URL, a duplicate, an
 * inheritance from a code without facts, or an override that no longer
 * changes anything upstream stops the build.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkUrl, readCsv } from './read-csv.js';

export interface PowerFact {
  plugs: string[];
  voltage: number;
  frequency: number;
  /** "fluids-power" or the URL of the override row. */
  source: string;
  /** The sovereign state whose system a territory uses, when inherited. */
  inherited_from: string | null;
}

export interface EmergencyFact {
  police: string;
  ambulance: string;
  fire: string;
  /** "android-ecc" (with any fallback named) or the URL of the override row. */
  source: string;
}

export type RegionFact = Partial<{ voltage: number; frequency: number; plugs: string[] }> & { source: string };

export interface IngestedPower {
  power: Record<string, PowerFact>;
  emergency: Record<string, EmergencyFact>;
  regions: Record<string, RegionFact>;
  coverage: { power: number; emergency: number; regions: number };
}

const CODE = /^[A-Z]{2}$/;
const REGION = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;
const PLUG = /^[A-O]$/;
const NUMBER = /^[0-9]{2,10}$/;
/** GSM/3GPP numbers every handset treats as emergency calls; a national number is preferred. */
const GENERIC = new Set(['112', '911']);

export const FLUIDS = 'fluids-power';
export const ANDROID_ECC = 'android-ecc';

/** Space- (overrides) or comma- (fluids) separated IEC letters, sorted; throws on anything else. */
export function parsePlugs(text: string, where: string): string[] {
  const letters = text.split(/[\s,]+/).filter(Boolean);
  if (letters.length === 0) throw new Error(`${where}: no plug letters`);
  for (const l of letters) if (!PLUG.test(l)) throw new Error(`${where}: bad plug letter "${l}"`);
  if (new Set(letters).size !== letters.length) throw new Error(`${where}: duplicate plug letter in "${text}"`);
  return [...letters].sort();
}

function parseVoltage(text: string, where: string): number {
  const v = Number(text);
  if (!/^\d+$/.test(text) || v < 100 || v > 240) throw new Error(`${where}: bad voltage "${text}" (an integer 100-240)`);
  return v;
}

function parseFrequency(text: string, where: string): number {
  if (text !== '50' && text !== '60') throw new Error(`${where}: bad frequency "${text}" (50 or 60)`);
  return Number(text);
}

/** fluids-power's TSV, keyed by upper-case code, with Malta's `np` row remapped to MT. */
export function loadFluidsPower(path: string): Record<string, PowerFact> {
  const lines = readFileSync(path, 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '');
  const out: Record<string, PowerFact> = {};
  let maltaFixed = false;
  for (const [i, line] of lines.slice(1).entries()) {
    const where = `${path} line ${i + 2}`;
    const cells = line.split('\t').map((c) => c.trim());
    if (cells.length !== 5) throw new Error(`${where}: ${cells.length} fields, expected 5`);
    const [name, rawCode, plugs, voltage, frequency] = cells;
    let code = rawCode.toUpperCase();
    // Upstream mis-codes Malta as `np` (Nepal's code); remap by name, and notice when upstream fixes it.
    if (name === 'Malta') {
      if (code !== 'NP') throw new Error(`${where}: Malta is no longer coded "np" upstream; drop the Malta fix`);
      code = 'MT';
      maltaFixed = true;
    }
    if (!CODE.test(code)) throw new Error(`${where}: bad code "${rawCode}"`);
    if (code in out) throw new Error(`${where}: duplicate code ${code}`);
    out[code] = {
      plugs: parsePlugs(plugs, where),
      voltage: parseVoltage(voltage, where),
      frequency: parseFrequency(frequency, where),
      source: FLUIDS,
      inherited_from: null,
    };
  }
  if (!maltaFixed) throw new Error(`${path}: no Malta row found`);
  return out;
}

interface PowerOverride {
  code: string;
  explicit: Omit<PowerFact, 'source' | 'inherited_from'> | null;
  inheritFrom: string | null;
  source: string;
}

/** power-overrides.csv: each row either explicit values or inherit_from, never both. */
export function loadPowerOverrides(path: string): PowerOverride[] {
  const seen = new Set<string>();
  return readCsv(path, 'code,plugs,voltage,frequency,inherit_from,source,note').map(({ row: r, where }) => {
    if (!CODE.test(r.code)) throw new Error(`${where}: bad code "${r.code}"`);
    if (seen.has(r.code)) throw new Error(`${where}: duplicate code ${r.code}`);
    seen.add(r.code);
    const source = checkUrl(r.source, where);
    const values = [r.plugs, r.voltage, r.frequency];
    if (r.inherit_from !== '') {
      if (values.some((v) => v !== '')) throw new Error(`${where}: inherit_from and explicit values are exclusive`);
      if (!CODE.test(r.inherit_from) || r.inherit_from === r.code) throw new Error(`${where}: bad inherit_from "${r.inherit_from}"`);
      return { code: r.code, explicit: null, inheritFrom: r.inherit_from, source };
    }
    if (values.some((v) => v === '')) throw new Error(`${where}: plugs, voltage and frequency are all required without inherit_from`);
    const explicit = { plugs: parsePlugs(r.plugs, where), voltage: parseVoltage(r.voltage, where), frequency: parseFrequency(r.frequency, where) };
    return { code: r.code, explicit, inheritFrom: null, source };
  });
}

const sameFacts = (a: Omit<PowerFact, 'source' | 'inherited_from'>, b: Omit<PowerFact, 'source' | 'inherited_from'>) =>
  a.voltage === b.voltage && a.frequency === b.frequency && a.plugs.join(' ') === b.plugs.join(' ');

/** Applies explicit rows first, then inheritance from the parent's final facts (no chains). */
export function applyPowerOverrides(base: Record<string, PowerFact>, overrides: PowerOverride[]): Record<string, PowerFact> {
  const out: Record<string, PowerFact> = { ...base };
  for (const o of overrides) {
    if (!o.explicit) continue;
    if (base[o.code] && sameFacts(base[o.code], o.explicit)) throw new Error(`power override ${o.code} no longer changes ${FLUIDS}; remove it`);
    out[o.code] = { ...o.explicit, source: o.source, inherited_from: null };
  }
  for (const o of overrides) {
    if (!o.inheritFrom) continue;
    const parent = out[o.inheritFrom];
    if (!parent) throw new Error(`power override ${o.code}: inherits from ${o.inheritFrom}, which has no power facts`);
    if (parent.inherited_from !== null) throw new Error(`power override ${o.code}: ${o.inheritFrom} is itself inherited`);
    if (base[o.code]) throw new Error(`power override ${o.code}: ${FLUIDS} has facts for it; inherit only where it has none`);
    out[o.code] = { plugs: [...parent.plugs], voltage: parent.voltage, frequency: parent.frequency, source: o.source, inherited_from: o.inheritFrom };
  }
  return out;
}

const TYPES = { police: 'POLICE', ambulance: 'AMBULANCE', fire: 'FIRE' } as const;

interface EccCountry {
  iso_code: string;
  eccs: { phone_number: string; types: string[] }[];
  ecc_fallback: string;
}

/**
 * The number a traveller should dial per service, from android-ecc: the first
 * number of that type that is not the GSM 112/911; else 112/911 when that is
 * all the table has; else the table's ecc_fallback (named in `source`).
 */
export function emergencyFromEcc(country: EccCountry): EmergencyFact {
  const fallbacks: string[] = [];
  const pick = (field: keyof typeof TYPES): string => {
    const numbers = country.eccs.filter((e) => e.types.includes(TYPES[field])).map((e) => e.phone_number);
    const chosen = numbers.find((n) => !GENERIC.has(n)) ?? numbers[0];
    if (chosen !== undefined) return chosen;
    fallbacks.push(field);
    return country.ecc_fallback;
  };
  const fact = { police: pick('police'), ambulance: pick('ambulance'), fire: pick('fire') };
  for (const [k, v] of Object.entries(fact)) if (!NUMBER.test(v)) throw new Error(`${ANDROID_ECC} ${country.iso_code}: bad ${k} number "${v}"`);
  const source = fallbacks.length ? `${ANDROID_ECC} (ecc_fallback for ${fallbacks.join(', ')})` : ANDROID_ECC;
  return { ...fact, source };
}

export function loadAndroidEcc(path: string): Record<string, EmergencyFact> {
  const data = JSON.parse(readFileSync(path, 'utf8')) as { countries: EccCountry[] };
  const out: Record<string, EmergencyFact> = {};
  for (const c of data.countries) {
    if (!CODE.test(c.iso_code)) throw new Error(`${path}: bad iso_code "${c.iso_code}"`);
    if (c.iso_code in out) throw new Error(`${path}: duplicate ${c.iso_code}`);
    out[c.iso_code] = emergencyFromEcc(c);
  }
  return out;
}

export function loadEmergencyOverrides(path: string): (EmergencyFact & { code: string })[] {
  const seen = new Set<string>();
  return readCsv(path, 'code,police,ambulance,fire,source,note').map(({ row: r, where }) => {
    if (!CODE.test(r.code)) throw new Error(`${where}: bad code "${r.code}"`);
    if (seen.has(r.code)) throw new Error(`${where}: duplicate code ${r.code}`);
    seen.add(r.code);
    for (const k of ['police', 'ambulance', 'fire'] as const) if (!NUMBER.test(r[k])) throw new Error(`${where}: bad ${k} number "${r[k]}"`);
    return { code: r.code, police: r.police, ambulance: r.ambulance, fire: r.fire, source: checkUrl(r.source, where) };
  });
}

export function applyEmergencyOverrides(
  base: Record<string, EmergencyFact>,
  overrides: (EmergencyFact & { code: string })[],
): Record<string, EmergencyFact> {
  const out = { ...base };
  for (const { code, ...fact } of overrides) {
    const b = base[code];
    if (b && b.police === fact.police && b.ambulance === fact.ambulance && b.fire === fact.fire) {
      throw new Error(`emergency override ${code} no longer changes ${ANDROID_ECC}; remove it`);
    }
    out[code] = fact;
  }
  return out;
}

/** region-overrides.csv, merged per region; the region's country must have power facts. */
export function loadRegionOverrides(path: string, power: Record<string, PowerFact>): Record<string, RegionFact> {
  const out: Record<string, RegionFact> = {};
  const sources: Record<string, string[]> = {};
  for (const { row: r, where } of readCsv(path, 'region,field,value,source,note')) {
    if (!REGION.test(r.region)) throw new Error(`${where}: bad ISO 3166-2 code "${r.region}"`);
    if (!power[r.region.slice(0, 2)]) throw new Error(`${where}: ${r.region.slice(0, 2)} has no power facts`);
    const source = checkUrl(r.source, where);
    const fact = (out[r.region] ??= { source: '' });
    if (r.field !== 'voltage' && r.field !== 'frequency' && r.field !== 'plugs') throw new Error(`${where}: bad field "${r.field}"`);
    if (fact[r.field] !== undefined) throw new Error(`${where}: duplicate ${r.field} for ${r.region}`);
    if (r.field === 'voltage') fact.voltage = parseVoltage(r.value, where);
    else if (r.field === 'frequency') fact.frequency = parseFrequency(r.value, where);
    else fact.plugs = parsePlugs(r.value, where);
    const list = (sources[r.region] ??= []);
    if (!list.includes(source)) list.push(source);
    fact.source = list.join(' ');
  }
  return out;
}

const sortKeys = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Everything above, from the `sources/` root. Records are sorted by code. */
export function ingestPower(sourcesDir: string): IngestedPower {
  const dir = join(sourcesDir, 'travel');
  const power = sortKeys(
    applyPowerOverrides(loadFluidsPower(join(dir, 'fluids-power', 'residential-power.tsv')), loadPowerOverrides(join(dir, 'power-overrides.csv'))),
  );
  const emergency = sortKeys(
    applyEmergencyOverrides(loadAndroidEcc(join(dir, 'android-ecc', 'eccdata.json')), loadEmergencyOverrides(join(dir, 'emergency-overrides.csv'))),
  );
  const regions = sortKeys(loadRegionOverrides(join(dir, 'region-overrides.csv'), power));
  return {
    power,
    emergency,
    regions,
    coverage: { power: Object.keys(power).length, emergency: Object.keys(emergency).length, regions: Object.keys(regions).length },
  };
}

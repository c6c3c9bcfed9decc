/**
 * Travel power and emergency facts: golden facts typed in by hand
 * (test/golden/travel.json, each citing its source) checked against
 * ingestPower, plus the stage's coverage, inheritance and fail-closed rules,
 * and the differential check of plugs against Wikidata (kitinerary), whose
 * every disagreement is listed with its resolution.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emergencyFromEcc, ingestPower, parsePlugs } from '../pipeline/stages/ingest-power.js';

interface GoldenCountry {
  code: string;
  plugs: string[];
  voltage: number;
  frequency: number;
  emergency: { police: string; ambulance: string; fire: string };
  phone_code: string;
  driving_side: 'left' | 'right';
  sources: Record<'power' | 'emergency' | 'phone_code' | 'driving_side', string>;
}
interface GoldenRegion { region: string; voltage?: number; frequency?: number; source: string }
interface Golden {
  sources: { id: string; url: string }[];
  countries: GoldenCountry[];
  regions: GoldenRegion[];
  wikidata_plug_disagreements: { code: string; ours: string[]; wikidata: string[]; resolution: string }[];
}

const root = join(import.meta.dirname, '..');
const sourcesDir = join(root, 'sources');
const golden: Golden = JSON.parse(readFileSync(join(import.meta.dirname, 'golden', 'travel.json'), 'utf8'));
const data = ingestPower(sourcesDir);

describe('golden travel file is well formed', () => {
  const ids = new Set(golden.sources.map((s) => s.id));
  it('has at least 25 countries, including the ones the issue names', () => {
    const codes = golden.countries.map((c) => c.code);
    expect(codes.length).toBeGreaterThanOrEqual(25);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of ['GB', 'US', 'JP', 'BR', 'IN', 'AU', 'ZA', 'CH', 'IL', 'IT', 'DK', 'TH']) expect(codes).toContain(c);
  });
  it('cites a listed source for every fact, and every source is a URL', () => {
    for (const s of golden.sources) expect(s.url).toMatch(/^https?:\/\//);
    for (const c of golden.countries) for (const id of Object.values(c.sources)) expect(ids.has(id), `${c.code} ${id}`).toBe(true);
    for (const r of golden.regions) expect(ids.has(r.source), r.region).toBe(true);
  });
  it('phone codes carry a leading plus and driving sides are left or right', () => {
    for (const c of golden.countries) {
      expect(c.phone_code, c.code).toMatch(/^\+\d{1,4}$/);
      expect(['left', 'right']).toContain(c.driving_side);
    }
  });
});

describe('golden facts match ingestPower', () => {
  for (const g of golden.countries) {
    it(`${g.code}: plugs ${g.plugs.join(' ')}, ${g.voltage} V ${g.frequency} Hz; ${g.emergency.police}/${g.emergency.ambulance}/${g.emergency.fire}`, () => {
      const p = data.power[g.code];
      expect(p, `${g.code} has no power facts`).toBeDefined();
      expect({ plugs: p.plugs, voltage: p.voltage, frequency: p.frequency }).toEqual({ plugs: [...g.plugs].sort(), voltage: g.voltage, frequency: g.frequency });
      const e = data.emergency[g.code];
      expect({ police: e.police, ambulance: e.ambulance, fire: e.fire }).toEqual(g.emergency);
    });
  }
  for (const g of golden.regions) {
    it(`${g.region}: ${g.voltage ?? ''} V ${g.frequency ?? ''} Hz (region value, else the country's)`, () => {
      const country = data.power[g.region.slice(0, 2)];
      const region = data.regions[g.region];
      expect(region, `${g.region} has no region row`).toBeDefined();
      if (g.voltage !== undefined) expect(region.voltage ?? country.voltage).toBe(g.voltage);
      if (g.frequency !== undefined) expect(region.frequency ?? country.frequency).toBe(g.frequency);
    });
  }
});

describe('coverage and provenance', () => {
  it('counts what it emits', () => {
    expect(data.coverage).toEqual({
      power: Object.keys(data.power).length,
      emergency: Object.keys(data.emergency).length,
      regions: Object.keys(data.regions).length,
    });
    // 204 fluids-power codes (after the Malta fix) + 38 from power-overrides.csv;
    // 227 android-ecc codes + 14 from emergency-overrides.csv; 47 prefectures + 27 states.
    expect(data.coverage).toEqual({ power: 242, emergency: 241, regions: 74 });
  });
  it('fixes Malta (mis-coded np upstream) without losing Nepal', () => {
    expect(data.power.MT).toMatchObject({ plugs: ['G'], voltage: 230, frequency: 50 });
    expect(data.power.NP).toMatchObject({ plugs: ['C', 'D', 'M'], voltage: 230, frequency: 50 });
  });
  it('gives the five states missing upstream their facts, and uninhabited territories none', () => {
    for (const c of ['GE', 'KI', 'MH', 'SS', 'VA']) expect(data.power[c], c).toBeDefined();
    for (const c of ['AQ', 'BV', 'GS', 'HM', 'UM']) {
      expect(data.power[c], c).toBeUndefined();
      expect(data.emergency[c], c).toBeUndefined();
    }
  });
  it('flags inherited territories with their parent and copies the parent facts', () => {
    const inherited = Object.entries(data.power).filter(([, p]) => p.inherited_from !== null);
    expect(inherited.length).toBe(18);
    for (const [code, p] of inherited) {
      const parent = data.power[p.inherited_from!];
      expect({ plugs: p.plugs, voltage: p.voltage, frequency: p.frequency }, code).toEqual({ plugs: parent.plugs, voltage: parent.voltage, frequency: parent.frequency });
      expect(p.source, code).toMatch(/^https?:\/\//);
    }
    expect(data.power.RE.inherited_from).toBe('FR');
    expect(data.power.PR.inherited_from).toBe('US');
  });
  it('does not inherit French 50 Hz for the 60 Hz French islands', () => {
    for (const c of ['BL', 'MF', 'PF']) expect(data.power[c]).toMatchObject({ frequency: 60, inherited_from: null });
  });
  it('every fact names its source: upstream file or a cited URL', () => {
    for (const p of Object.values(data.power)) expect(p.source).toMatch(/^(fluids-power|https?:\/\/\S+)$/);
    for (const e of Object.values(data.emergency)) expect(e.source).toMatch(/^(android-ecc( \(ecc_fallback for [a-z, ]+\))?|https?:\/\/\S+)$/);
    for (const r of Object.values(data.regions)) expect(r.source).toMatch(/^https?:\/\//);
  });
  it('splits Japan by frequency and Brazil by voltage for every prefecture and state', () => {
    const jp = Object.keys(data.regions).filter((r) => r.startsWith('JP-'));
    const br = Object.keys(data.regions).filter((r) => r.startsWith('BR-'));
    expect(jp.length).toBe(47);
    expect(br.length).toBe(27);
    for (const r of jp) expect([50, 60]).toContain(data.regions[r].frequency);
    for (const r of br) expect([127, 220]).toContain(data.regions[r].voltage);
  });
});

describe('emergency rule: the national number, 112/911 only when nothing else is listed', () => {
  it('prefers the national number over 112 (France, Italy, Switzerland)', () => {
    expect(data.emergency.FR).toMatchObject({ police: '17', ambulance: '15', fire: '18' });
    expect(data.emergency.IT).toMatchObject({ police: '113', ambulance: '118', fire: '115' });
    expect(data.emergency.CH).toMatchObject({ police: '117', ambulance: '144', fire: '118' });
  });
  it('uses the one number for all three where one serves all (DK 112, US 911, GB 999)', () => {
    expect(data.emergency.DK).toMatchObject({ police: '112', ambulance: '112', fire: '112' });
    expect(data.emergency.US).toMatchObject({ police: '911', ambulance: '911', fire: '911' });
    expect(data.emergency.GB).toMatchObject({ police: '999', ambulance: '999', fire: '999' });
  });
  it('falls back to ecc_fallback for a service the table lacks, and says so', () => {
    const fact = emergencyFromEcc({ iso_code: 'XX', eccs: [{ phone_number: '117', types: ['POLICE'] }], ecc_fallback: '112' });
    expect(fact).toEqual({ police: '117', ambulance: '112', fire: '112', source: 'android-ecc (ecc_fallback for ambulance, fire)' });
  });
});

describe('plugs cross-checked against Wikidata (kitinerary)', () => {
  it('every disagreement is listed with its resolution, and nothing listed has gone away', () => {
    const kit = JSON.parse(readFileSync(join(sourcesDir, 'travel', 'kitinerary-wikidata', 'countrydb.json'), 'utf8')) as {
      countries: { cca2: string; plug_types: string[] }[];
    };
    const found = kit.countries
      .filter((c) => !['BU', 'TP'].includes(c.cca2) && c.plug_types.length > 0 && data.power[c.cca2])
      .map((c) => ({ code: c.cca2, ours: data.power[c.cca2].plugs, wikidata: [...c.plug_types].sort() }))
      .filter((d) => d.ours.join(' ') !== d.wikidata.join(' '));
    expect(found).toEqual(golden.wikidata_plug_disagreements.map(({ code, ours, wikidata }) => ({ code, ours, wikidata })));
  });
});

describe('fails closed on bad curated rows', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'refdata-power-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const withFile = (name: string, edit: (text: string) => string) => {
    const dir = join(scratch, `${name}-${Math.random().toString(36).slice(2)}`);
    cpSync(join(sourcesDir, 'travel'), join(dir, 'travel'), { recursive: true });
    const path = join(dir, 'travel', name);
    writeFileSync(path, edit(readFileSync(path, 'utf8')));
    return () => ingestPower(dir);
  };
  it('rejects a power row without a source URL', () => {
    expect(withFile('power-overrides.csv', (t) => t.replace('https://www.iec.ch/world-plugs', 'IEC'))).toThrow(/source must be an http\(s\) URL/);
  });
  it('rejects a bad plug letter, voltage or frequency', () => {
    expect(withFile('power-overrides.csv', (t) => t.replace('GE,C F,220,50', 'GE,C Z,220,50'))).toThrow(/plug letter/);
    expect(withFile('power-overrides.csv', (t) => t.replace('GE,C F,220,50', 'GE,C F,2200,50'))).toThrow(/voltage/);
    expect(withFile('power-overrides.csv', (t) => t.replace('GE,C F,220,50', 'GE,C F,220,55'))).toThrow(/frequency/);
  });
  it('rejects explicit values together with inherit_from, and inheritance from nothing', () => {
    expect(withFile('power-overrides.csv', (t) => t.replace('GF,,,,FR', 'GF,C E,,,FR'))).toThrow(/exclusive/);
    expect(withFile('power-overrides.csv', (t) => t.replace('GF,,,,FR', 'GF,,,,AQ'))).toThrow(/no power facts/);
  });
  it('rejects an override that no longer changes upstream', () => {
    expect(withFile('power-overrides.csv', (t) => t.replace('ZA,C D M N,230,50', 'ZA,C F M N,230,50'))).toThrow(/no longer changes/);
    expect(withFile('emergency-overrides.csv', (t) => t.replace('DE,110,112,112', 'DE,112,112,112'))).toThrow(/no longer changes/);
  });
  it('rejects a malformed emergency or region row', () => {
    expect(withFile('emergency-overrides.csv', (t) => t.replace('DE,110,', 'DE,11O,'))).toThrow(/police number/);
    expect(withFile('emergency-overrides.csv', (t) => t.replace('https://www.polizei.de/', ''))).toThrow(/source must be an http\(s\) URL/);
    expect(withFile('region-overrides.csv', (t) => t.replace('JP-13,frequency,50', 'JP-13,frequency,55'))).toThrow(/frequency/);
    expect(withFile('region-overrides.csv', (t) => t.replace('JP-13,frequency', 'JP13,frequency'))).toThrow(/ISO 3166-2/);
    expect(withFile('region-overrides.csv', (t) => `${t}JP-13,frequency,50,https://www.tepco.co.jp/pg/,dup\n`)).toThrow(/duplicate/);
    expect(withFile('region-overrides.csv', (t) => t.replace('region,field,value', 'region,field,val'))).toThrow(/header/);
  });
  it('parsePlugs sorts and refuses duplicates', () => {
    expect(parsePlugs('L F C', 'x')).toEqual(['C', 'F', 'L']);
    expect(() => parsePlugs('C C', 'x')).toThrow(/duplicate/);
  });
});

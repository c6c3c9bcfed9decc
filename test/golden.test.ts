/**
 * Golden facts typed in by hand from official calendars (test/golden/*.json,
 * each fact citing its source URL), checked through the API routes. These
 * files are never regenerated from our output. Where upstream data is known
 * to disagree with an official source, the case is listed in
 * test/golden/known-disagreements.json with the reason; the test then checks
 * that the disagreement still exists, so a fix upstream is noticed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appAt, getJson } from './helpers.js';

interface DayFact {
  date: string;
  _weekday: string;
  type: string;
  is_business_day: boolean;
  reason?: string;
  name_includes?: string;
  /** official when the year comes from a published schedule, corroborated when python-holidays agrees on the whole location-year. */
  basis?: 'official' | 'corroborated' | 'rules';
  /** true on a make-up working day outside the workweek: the answer carries a working_day object. */
  working_day?: boolean;
  source: string;
}
interface ArithmeticFact { op: 'add' | 'subtract' | 'count' | 'next'; start: string; days?: number; end?: string; type: string; result?: string; business_days?: number; source: string; why?: string }
interface GoldenFile { location: string; sources: { id: string; url: string }[]; days: DayFact[]; arithmetic?: ArithmeticFact[] }
interface Disagreement { location: string; date: string; type: string; why: string }

const dir = join(import.meta.dirname, 'golden');
const files = readdirSync(dir).filter((f) => /^[A-Z]{2}(-[A-Z0-9]+)?\.json$/.test(f)).sort();
const known: Disagreement[] = JSON.parse(readFileSync(join(dir, 'known-disagreements.json'), 'utf8')).disagreements;
const isKnown = (loc: string, date: string, type: string) => known.find((k) => k.location === loc && k.date === date && k.type === type);
const app = appAt();

describe('golden files are well formed', () => {
  it('cover at least 15 locations, each fact citing a listed source', () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
    for (const f of files) {
      const g: GoldenFile = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const ids = new Set(g.sources.map((s) => s.id));
      for (const s of g.sources) expect(s.url, f).toMatch(/^https?:\/\//);
      for (const d of [...g.days, ...(g.arithmetic ?? [])]) expect(ids.has(d.source), `${f} ${JSON.stringify(d)}`).toBe(true);
      for (const d of g.days) {
        const weekday = new Date(`${d.date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' }).toLowerCase();
        expect(d._weekday, `${f} ${d.date}`).toBe(weekday);
      }
    }
  });
});

for (const file of files) {
  const g: GoldenFile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  describe(`golden ${g.location}`, () => {
    for (const fact of g.days) {
      const disagreement = isKnown(g.location, fact.date, fact.type);
      const title = `${fact.date} (${fact._weekday}) ${fact.type}: ${fact.is_business_day ? 'business day' : `closed (${fact.reason})`}${disagreement ? ' [known disagreement]' : ''}`;
      it(title, async () => {
        const { status, body } = await getJson(app, `/v1/business-days/${g.location}?date=${fact.date}&type=${fact.type}`);
        expect(status).toBe(200);
        if (disagreement) {
          expect(body.is_business_day, `listed as a known disagreement (${disagreement.why}) but now agrees: remove it`).not.toBe(fact.is_business_day);
          return;
        }
        expect(body.is_business_day).toBe(fact.is_business_day);
        if (!fact.is_business_day) expect(body.reason).toBe(fact.reason);
        if (fact.basis) expect(body.basis, 'basis').toBe(fact.basis);
        if (fact.working_day !== undefined) {
          if (fact.working_day) expect(body.working_day, 'working_day').toMatchObject({ date: fact.date });
          else expect(body.working_day).toBeNull();
        }
        if (fact.name_includes) {
          const names = `${body.holiday?.name ?? ''} | ${body.holiday?.local_name ?? ''}`.toLowerCase();
          expect(names).toContain(fact.name_includes.toLowerCase());
        }
      });
    }
    for (const a of g.arithmetic ?? []) {
      it(`${a.op} ${a.start}${a.days ? ` ${a.days}` : ''}${a.end ? `..${a.end}` : ''} ${a.type}${a.why ? ` (${a.why})` : ''}`, async () => {
        const q =
          a.op === 'count' ? `start=${a.start}&end=${a.end}` : a.op === 'next' ? `from=${a.start}` : `start=${a.start}&days=${a.days}`;
        const { status, body } = await getJson(app, `/v1/business-days/${g.location}/${a.op}?${q}&type=${a.type}`);
        expect(status).toBe(200);
        if (a.op === 'count') expect(body.business_days).toBe(a.business_days);
        else if (a.op === 'next') expect(body.next).toBe(a.result);
        else expect(body.result).toBe(a.result);
      });
    }
  });
}

/**
 * Holiday provenance and coverage over every year file of the built dataset (1990-2099):
 * - `official` only where a published schedule or act is cited: every official row names its acts and
 *   its year's sources list them; every citation a row names is in its year's sources;
 * - a holiday that closes business in every year of one decade does not vanish in every year of the
 *   next unless a rule or correction of sources/holidays ends it with a cited `until`. Locations python-holidays
 *   supplies (no date-holidays data) are left out of this check: their ends are python-holidays' own (each in its
 *   code with the act), and no row of ours is typed for them but the official ones.
 * A fix typed as dated rows for an audit's window fails here the decade after the window.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appliesTo } from '../lib/location-code.js';
import { formatDate, parseDate } from '../lib/plain-date.js';
import type { BusinessDaysLocation, BusinessDaysLocations, BusinessDaysYear } from '../lib/schema-types.js';
import { loadCuration } from '../pipeline/stages/holidays/curation.js';
import { DATA_DIR } from './helpers.js';

const DIR = join(DATA_DIR, 'v1', 'business-days');
const shifted = (date: string, days: number) => formatDate((parseDate(date) ?? parseDate(date.replace('-02-29', '-02-28'))!) + days);
const list = JSON.parse(readFileSync(join(DIR, 'index.json'), 'utf8')) as BusinessDaysLocations;
const curation = loadCuration(join(import.meta.dirname, '..', 'sources', 'holidays'));

/**
 * Every year file of every location, read once for both checks: asynchronously and a location at a time, so the
 * worker answers the test runner while it reads 69,000 files (a synchronous loop starved its RPC under load).
 */
let scan: Promise<Map<string, BusinessDaysYear[]>> | undefined;
function yearFiles(): Promise<Map<string, BusinessDaysYear[]>> {
  scan ??= (async () => {
    const out = new Map<string, BusinessDaysYear[]>();
    for (const { location } of list.locations) {
      const names = (await readdir(join(DIR, location))).filter((n) => /^\d{4}\.json$/.test(n)).sort();
      out.set(location, await Promise.all(names.map(async (n) => JSON.parse(await readFile(join(DIR, location, n), 'utf8')) as BusinessDaysYear)));
    }
    return out;
  })();
  return scan;
}

describe('provenance', () => {
  it('every official row cites its acts, and every cited act is in its year\'s sources', async () => {
    const problems: string[] = [];
    let official = 0;
    for (const docs of (await yearFiles()).values()) {
      for (const doc of docs) {
        const listed = new Set(doc.sources.map((s) => s.id));
        if (doc.basis === 'official' && doc.sources.length === 0) problems.push(`${doc.location} ${doc.year}: official year without sources`);
        for (const r of [...doc.holidays, ...doc.working_days]) {
          if ('basis' in r && r.basis === 'official') {
            official++;
            if (r.citations.length === 0) problems.push(`${doc.location} ${r.date} ${r.name}: official row without citations`);
          }
          for (const id of r.citations) if (!listed.has(id)) problems.push(`${doc.location} ${r.date} ${r.name}: cites ${id}, not in the year's sources`);
        }
        const cited = new Set([...doc.holidays, ...doc.working_days].flatMap((r) => r.citations));
        for (const s of doc.sources) if (doc.basis !== 'official' && !cited.has(s.id)) problems.push(`${doc.location} ${doc.year}: lists ${s.id}, which no row cites`);
      }
    }
    expect(official).toBeGreaterThan(1000);
    expect(problems.slice(0, 20)).toEqual([]);
  }, 180_000);
});

describe('coverage from decade to decade', () => {
  it('no holiday that closes business every year of a decade vanishes in every year of the next without a cited end', async () => {
    // Where a holiday's cited end is: a rule's or correction's `until`, or the `since` of a correction that removes it
    // from then on (J&K's Martyrs' Day, dropped by G.O. 251 of 2019 from 2020).
    const ends = [
      ...[...curation.rules, ...curation.corrections].filter((r) => r.until !== null).map((r) => ({ location: r.location, name: 'holiday' in r ? r.holiday : r.name, year: Number(r.until!.slice(0, 4)) })),
      ...curation.corrections.filter((r) => r.action === 'remove' && r.since !== null && r.until === null).map((r) => ({ location: r.location, name: r.holiday, year: Number(r.since!.slice(0, 4)) - 1 })),
    ];
    const problems: string[] = [];
    for (const [location, docs] of await yearFiles()) {
      const index = JSON.parse(readFileSync(join(DIR, location, 'index.json'), 'utf8')) as BusinessDaysLocation;
      if (index.day_types.business.basis.includes('python-holidays')) continue;
      // name -> years in which a row of that name closes business / exists
      const closing = new Map<string, Set<number>>();
      const present = new Map<string, Set<number>>();
      const closedDays = new Set<string>(); // dates on which any row closes business
      const lastDate = new Map<string, string>(); // name|year -> its latest closing date
      for (const doc of docs) {
        for (const h of doc.holidays) {
          if (!present.has(h.name)) present.set(h.name, new Set());
          present.get(h.name)!.add(doc.year);
          if (h.closes.includes('business')) closedDays.add(h.date);
          if (h.closes.includes('business') && !h.substitute) {
            if (!closing.has(h.name)) closing.set(h.name, new Set());
            closing.get(h.name)!.add(doc.year);
            if (h.date > (lastDate.get(`${h.name}|${doc.year}`) ?? '')) lastDate.set(`${h.name}|${doc.year}`, h.date);
          }
        }
      }
      for (const [name, years] of closing) {
        for (let decade = 1990; decade + 19 <= 2099; decade += 10) {
          const every = Array.from({ length: 10 }, (_, i) => decade + i).every((y) => years.has(y));
          const next = Array.from({ length: 10 }, (_, i) => decade + 10 + i);
          if (!every || next.some((y) => present.get(name)!.has(y))) continue;
          // A holiday renamed, not ended (Japan's 体育の日 → スポーツの日 in 2020): another row closes business
          // within a week of its month-day in most years of the next decade.
          const md = lastDate.get(`${name}|${decade + 9}`)!.slice(5);
          const near = (y: number) => Array.from({ length: 15 }, (_, i) => i - 7).some((d) => closedDays.has(shifted(`${y}-${md}`, d)));
          if (next.filter(near).length >= 8) continue;
          const ended = ends.some((r) => appliesTo(r.location, location) && r.name === name && r.year >= decade && r.year < decade + 20);
          if (!ended) problems.push(`${location} ${name}: closes business every year of the ${decade}s, absent in every year of the ${decade + 10}s`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 180_000);
});

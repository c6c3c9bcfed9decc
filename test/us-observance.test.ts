/**
 * Each US state's weekend rule for its legal holidays, typed by hand from the state's statute
 * (test/golden/us-observance.csv: the statute and the page it was read on), checked through the API on
 * Independence Day, a federal and state holiday in every state:
 * - 4 July 2026 is a Saturday. Where the state's law moves a Saturday holiday to Friday (`saturday` = friday),
 *   Friday 3 July is not a business day; where it does not (`none`), Friday 3 July is a business day there and
 *   closes government only (federal offices observe it under 5 U.S.C. 6103(b)).
 * - 4 July 2027 is a Sunday. Where the law moves it to Monday (`sunday` = monday), Monday 5 July is not a business
 *   day; where it does not (`none`), Monday 5 July is a business day and closes banking and government (the
 *   Federal Reserve and federal offices observe it). An empty `sunday` was not settled for 4 July.
 * States whose statute was not read are not in the file (docs/api.md's business-day section lists them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { appAt, getJson } from './helpers.js';

interface Rule { location: string; saturday: 'friday' | 'none'; sunday: 'monday' | 'none' | ''; statute: string; url: string }

const rules = parse(readFileSync(join(import.meta.dirname, 'golden', 'us-observance.csv'), 'utf8'), { columns: true }) as Rule[];
const app = appAt();
const closed = async (loc: string, date: string, type: string) => {
  const { status, body } = await getJson(app, `/v1/business-days/${loc}?date=${date}&type=${type}`);
  expect(status, `${loc} ${date} ${type}`).toBe(200);
  return !body.is_business_day;
};

describe('US states: a weekend holiday moves only where the state law moves it', () => {
  it('the table is well formed and covers most states', () => {
    expect(rules.length).toBeGreaterThanOrEqual(35);
    for (const r of rules) {
      expect(r.location, r.location).toMatch(/^US-[A-Z]{2}$/);
      expect(['friday', 'none'], r.location).toContain(r.saturday);
      expect(['monday', 'none', ''], r.location).toContain(r.sunday);
      expect(r.statute.length, r.location).toBeGreaterThan(5);
      expect(r.url, r.location).toMatch(/^https?:\/\//);
    }
  });

  for (const r of rules) {
    it(`${r.location} (${r.statute}): Saturday 4 July 2026 ${r.saturday === 'friday' ? 'closes' : 'does not close'} Friday 3 July for business`, async () => {
      expect(await closed(r.location, '2026-07-03', 'business')).toBe(r.saturday === 'friday');
      expect(await closed(r.location, '2026-07-03', 'government')).toBe(true);
    });
    if (r.sunday) {
      it(`${r.location} (${r.statute}): Sunday 4 July 2027 ${r.sunday === 'monday' ? 'closes' : 'does not close'} Monday 5 July for business`, async () => {
        expect(await closed(r.location, '2027-07-05', 'business')).toBe(r.sunday === 'monday');
        expect(await closed(r.location, '2027-07-05', 'banking')).toBe(true);
        expect(await closed(r.location, '2027-07-05', 'government')).toBe(true);
      });
    }
  }
});

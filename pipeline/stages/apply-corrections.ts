/**
 * Stage: apply the corrections of sources/holidays/<CC>/corrections.csv, cited edits of the upstream
 * projection's rows named `holiday` from `since` to `until` (a holiday introduced later than its rule says,
 * one abolished, a commemoration that closes nothing, a better English name, a standing observance rule
 * upstream lacks). A correction that matches nothing anywhere fails the build, so none silently stops
 * applying when upstream changes.
 */
import { rowAppliesTo } from '../../lib/location-code.js';
import { formatDate, parseDate, weekdayName } from '../../lib/plain-date.js';
import type { Holiday } from '../../lib/schema-types.js';
import type { CorrectionRow } from './holidays/curation.js';
import { addCitations, makeHoliday } from './holidays/record.js';
import { compareHolidays, type IngestedLocation } from './ingest-holidays.js';

const inRange = (date: string, c: CorrectionRow) =>
  (c.since === null || date >= c.since) && (c.until === null || date <= c.until) && (c.action !== 'remove' || !c.value || date.slice(5) === c.value);

/** Applies one correction in place; returns how many rows it touched. */
function applyOne(holidays: Holiday[], c: CorrectionRow): number {
  if (c.action === 'introduced') {
    // date-holidays projects a rule backwards from today: drop the rows before the holiday existed.
    const before = holidays.filter((h) => h.name === c.holiday && h.date < c.since!);
    for (const h of before) holidays.splice(holidays.indexOf(h), 1);
    return before.length;
  }
  const matches = holidays.filter((h) => h.name === c.holiday && inRange(h.date, c));
  switch (c.action) {
    case 'remove':
      for (const h of matches) holidays.splice(holidays.indexOf(h), 1);
      return matches.length;
    case 'rename':
      for (const h of matches) {
        h.name = c.value;
        addCitations(h, c.citations);
      }
      return matches.length;
    case 'not-a-day-off':
      // A commemoration or observance: listed, but it closes no day type.
      for (const h of matches) {
        h.closes = [];
        addCitations(h, c.citations);
      }
      return matches.length;
    case 'substitute-next-working-day': {
      // Rows on a Saturday or Sunday, in date order: each gets the first later weekday that is not already
      // closed for business (by another holiday or an earlier substitute), so a run of weekend holidays gets
      // a run of days off (Bulgaria's Labour Code art. 154(2): Christmas on Saturday-Sunday gives Monday and Tuesday).
      const closed = new Set(holidays.filter((h) => h.closes.includes('business')).map((h) => h.date));
      for (const h of [...matches].sort((a, b) => (a.date < b.date ? -1 : 1))) {
        let day = parseDate(h.date)!;
        if (!['saturday', 'sunday'].includes(weekdayName(day))) continue;
        do day++;
        while (['saturday', 'sunday'].includes(weekdayName(day)) || closed.has(formatDate(day)));
        const date = formatDate(day);
        closed.add(date);
        const localName = h.local_name === h.name ? `${h.name} (substitute day)` : h.local_name;
        holidays.push(makeHoliday({ date, name: `${h.name} (substitute day)`, localName, type: h.type, basis: 'rules', citations: c.citations, observedFor: h.date }));
      }
      return matches.length;
    }
    case 'observe-sunday-on-monday': {
      for (const h of matches) {
        const day = parseDate(h.date)!;
        if (weekdayName(day) !== 'sunday') continue;
        const date = formatDate(day + 1);
        const name = `${h.name} (observed)`;
        if (holidays.some((o) => o.date === date && o.name === name)) continue;
        // The local name is the holiday's own; an English-named one gets the English suffix too.
        const localName = h.local_name === h.name ? name : h.local_name;
        holidays.push(makeHoliday({ date, name, localName, type: h.type, basis: 'rules', citations: c.citations, observedFor: h.date }));
      }
      return matches.length;
    }
  }
}

/** Actions that derive new days from the rows there are: they run after the rules, so they see their days too. */
export const DERIVING: ReadonlySet<CorrectionRow['action']> = new Set(['observe-sunday-on-monday', 'substitute-next-working-day']);

/**
 * Applies this location's corrections (rows on its country or subdivision included) of one phase: `edits`
 * before the rules, `deriving` (observance and substitute days) after them.
 */
export function applyCorrections(loc: IngestedLocation, corrections: readonly CorrectionRow[], used: Set<CorrectionRow>, phase: 'edits' | 'deriving'): void {
  for (const c of corrections) {
    if (!rowAppliesTo(c, loc.target.location) || DERIVING.has(c.action) !== (phase === 'deriving')) continue;
    if (applyOne(loc.holidays, c) > 0) used.add(c);
  }
  loc.holidays.sort(compareHolidays);
}

/** Throws when a correction matched nothing in the locations it names. */
export function checkAllUsed(corrections: readonly CorrectionRow[], used: Set<CorrectionRow>): void {
  const unused = corrections.filter((c) => !used.has(c));
  if (unused.length) throw new Error(`corrections that matched nothing (upstream changed?):\n  ${unused.map((c) => `${c.where}: ${c.action} ${c.holiday}`).join('\n  ')}`);
}

/**
 * Stage: lay the business-day data out as files: a location list, and per
 * location an index.json and one {year}.json of holidays. Each location's
 * name and time zone are the ones every area uses (name-locations.ts), not
 * date-holidays' own; its workweeks come in workweek order (lib/workweek.ts).
 */
import type { BusinessDaysLocation, BusinessDaysLocations, BusinessDaysYear } from '../../lib/schema-types.js';
import type { IngestedLocation } from './ingest-holidays.js';
import type { WorkweekRow } from './ingest-workweeks.js';
import type { YearBasis } from './apply-official.js';
import type { LocationIdentity } from './name-locations.js';

export interface LocationData {
  loc: IngestedLocation;
  workweeks: WorkweekRow[];
  dayTypes: BusinessDaysLocation['day_types'];
  /** Basis, sources and working days of every year of the window. */
  basis: Map<number, YearBasis>;
}

/** Consecutive years of the same basis as spans. */
export function basisSpans(years: number[], basis: Map<number, YearBasis>): BusinessDaysLocation['basis'] {
  const spans: BusinessDaysLocation['basis'] = [];
  for (const year of years) {
    const b = basis.get(year)!.basis;
    const last = spans.at(-1);
    if (last && last.basis === b && last.to === year - 1) last.to = year;
    else spans.push({ from: year, to: year, basis: b });
  }
  return spans;
}

export type FileMap = Map<string, unknown>;

export function emitBusinessDays(
  locations: LocationData[],
  noHolidayData: BusinessDaysLocations['no_holiday_data'],
  firstYear: number,
  lastYear: number,
  identities: ReadonlyMap<string, Pick<LocationIdentity, 'name' | 'timezone'>>,
): FileMap {
  const files: FileMap = new Map();
  const range = { start: `${firstYear}-01-01`, end: `${lastYear}-12-31` };
  const years: number[] = [];
  for (let y = firstYear; y <= lastYear; y++) years.push(y);
  const list: BusinessDaysLocations = { range, locations: [], no_holiday_data: noHolidayData };
  for (const { loc, workweeks, dayTypes, basis } of locations) {
    const t = loc.target;
    const identity = identities.get(t.location);
    if (!identity) throw new Error(`${t.location}: no name and time zone chosen for it`);
    const { name, timezone } = identity;
    const officialYears = years.filter((y) => basis.get(y)!.basis === 'official');
    list.locations.push({ location: t.location, name, kind: t.kind, timezone, official_years: officialYears });
    const index: BusinessDaysLocation = {
      location: t.location,
      name,
      kind: t.kind,
      country: t.country,
      parent: t.parent,
      timezone,
      local_language: t.localLanguage,
      range,
      workweeks,
      day_types: dayTypes,
      years,
      basis: basisSpans(years, basis),
    };
    files.set(`business-days/${t.location}/index.json`, index);
    for (const year of years) {
      const prefix = `${year}-`;
      const b = basis.get(year)!;
      const doc: BusinessDaysYear = {
        location: t.location,
        year,
        basis: b.basis,
        sources: b.sources,
        holidays: loc.holidays.filter((h) => h.date.startsWith(prefix)),
        working_days: b.workingDays,
      };
      files.set(`business-days/${t.location}/${year}.json`, doc);
    }
  }
  list.locations.sort((a, b) => (a.location < b.location ? -1 : 1));
  files.set('business-days/index.json', list);
  return files;
}

/**
 * Stage: lay the business-day data out as files: a location list, and per
 * location an index.json and one {year}.json of holidays.
 */
import type { BusinessDaysLocation, BusinessDaysLocations, BusinessDaysYear } from '../../lib/schema-types.js';
import type { IngestedLocation } from './ingest-holidays.js';
import type { WorkweekRow } from './ingest-workweeks.js';

export interface LocationData {
  loc: IngestedLocation;
  workweeks: WorkweekRow[];
  dayTypes: BusinessDaysLocation['day_types'];
}

export type FileMap = Map<string, unknown>;

export function emitBusinessDays(
  locations: LocationData[],
  noHolidayData: BusinessDaysLocations['no_holiday_data'],
  firstYear: number,
  lastYear: number,
): FileMap {
  const files: FileMap = new Map();
  const range = { start: `${firstYear}-01-01`, end: `${lastYear}-12-31` };
  const years: number[] = [];
  for (let y = firstYear; y <= lastYear; y++) years.push(y);
  const list: BusinessDaysLocations = { range, locations: [], no_holiday_data: noHolidayData };
  for (const { loc, workweeks, dayTypes } of locations) {
    const t = loc.target;
    list.locations.push({ location: t.location, name: t.name, kind: t.kind, timezone: t.timezone });
    const index: BusinessDaysLocation = {
      location: t.location,
      name: t.name,
      kind: t.kind,
      country: t.country,
      parent: t.parent,
      timezone: t.timezone,
      local_language: t.localLanguage,
      range,
      workweeks,
      day_types: dayTypes,
      years,
    };
    files.set(`business-days/${t.location}/index.json`, index);
    for (const year of years) {
      const prefix = `${year}-`;
      const doc: BusinessDaysYear = { location: t.location, year, holidays: loc.holidays.filter((h) => h.date.startsWith(prefix)) };
      files.set(`business-days/${t.location}/${year}.json`, doc);
    }
  }
  list.locations.sort((a, b) => (a.location < b.location ? -1 : 1));
  files.set('business-days/index.json', list);
  return files;
}

/**
 * Stage: one iCalendar file per location and year, business-days/{LOCATION}/{YEAR}.ics, from the
 * same year documents as the JSON files (lib/icalendar.ts, shared with the API's holidays.ics, which
 * answers these exact bytes for from_year = to_year = YEAR and no type).
 */
import { renderFeed } from '../../lib/icalendar.js';
import type { BusinessDaysLocations, BusinessDaysYear } from '../../lib/schema-types.js';

/** business-days/{code}/{year}.ics for every year document in `files`. */
export function emitIcs(files: ReadonlyMap<string, unknown>, onFile: () => void = () => {}): Map<string, string> {
  const list = files.get('business-days/index.json') as BusinessDaysLocations;
  const names = new Map(list.locations.map((l) => [l.location, l.name]));
  const out = new Map<string, string>();
  for (const [path, doc] of files) {
    const m = /^business-days\/([^/]+)\/(\d{4})\.json$/.exec(path);
    if (!m) continue;
    const year = doc as BusinessDaysYear;
    onFile();
    out.set(`business-days/${m[1]}/${m[2]}.ics`, renderFeed({ location: year.location, name: names.get(year.location) ?? year.location, years: [year] }));
  }
  return out;
}

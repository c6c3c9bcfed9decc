/**
 * The whole diff of two datasets: runs the per-file comparisons over the
 * changed files and collects the warnings about past dates.
 */
import type { BusinessDaysLocation, BusinessDaysLocations, BusinessDaysYear, Manifest, TimezoneZone, TimezonesIndex, TravelIndex } from '../schema-types.js';
import {
  compareManifests,
  COUNTRY_FILE,
  isDetailedPath,
  LOCATION_FILE,
  LOCATIONS_INDEX,
  TRAVEL_FILE,
  TRAVEL_INDEX,
  YEAR_FILE,
  ZONE_FILE,
  ZONES_INDEX,
} from './files.js';
import { diffHolidays } from './holidays.js';
import { diffLocation } from './locations.js';
import { holidayChangeText, offsetChange } from './text.js';
import type { AliasChanges, DataDiff, FileChanges, Snapshot, WorkingDayChange, YearChange } from './types.js';
import { byKey, diffMaps, fieldChanges, pick } from './values.js';
import { diffZone, ZONE_METADATA } from './zones.js';

/** Reads a parsed file of one side; a file filesToLoad() did not list is a caller's bug. */
type Get = <T>(side: 'old' | 'new', path: string) => T;

function getter(oldSnap: Snapshot, newSnap: Snapshot): Get {
  return <T>(side: 'old' | 'new', path: string) => {
    const snap = side === 'old' ? oldSnap : newSnap;
    if (!snap.files.has(path)) throw new Error(`the diff needs ${side} ${path}, which was not loaded`);
    return snap.files.get(path) as T;
  };
}

function diffSources(a: Manifest['sources'], b: Manifest['sources']): DataDiff['sources'] {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return names
    .map((name) => ({ name, old: a[name]?.version ?? null, new: b[name]?.version ?? null }))
    .filter((s) => s.old !== s.new);
}

const match = (re: RegExp, paths: string[]) => paths.map((p) => re.exec(p)).filter((m): m is RegExpExecArray => m !== null);

/** Working days outside the workweek that one side has and the other does not (by date). */
function diffWorkingDays(location: string, a: BusinessDaysYear['working_days'], b: BusinessDaysYear['working_days'], today: string): WorkingDayChange[] {
  const dates = (l: BusinessDaysYear['working_days']) => new Set(l.map((w) => w.date));
  const [da, db] = [dates(a), dates(b)];
  return [
    ...b.filter((w) => !da.has(w.date)).map((w) => ({ location, date: w.date, kind: 'added' as const, name: w.name, past: w.date < today })),
    ...a.filter((w) => !db.has(w.date)).map((w) => ({ location, date: w.date, kind: 'removed' as const, name: w.name, past: w.date < today })),
  ];
}

function diffBusinessDays(get: Get, ch: FileChanges, today: string, out: DataDiff): void {
  if (ch.changed.includes(LOCATIONS_INDEX)) {
    const a = get<BusinessDaysLocations>('old', LOCATIONS_INDEX).locations;
    const b = get<BusinessDaysLocations>('new', LOCATIONS_INDEX).locations;
    const ids = (l: typeof a) => new Set(l.map((x) => x.location));
    const [ia, ib] = [ids(a), ids(b)];
    const ref = (x: (typeof a)[number]) => ({ location: x.location, name: x.name });
    out.locations.added = b.filter((x) => !ia.has(x.location)).map(ref);
    out.locations.removed = a.filter((x) => !ib.has(x.location)).map(ref);
  }
  // A new or dropped location is reported once, not as its dozens of year files.
  const whole = new Set([...out.locations.added, ...out.locations.removed].map((l) => l.location));

  for (const [path, location] of match(LOCATION_FILE, ch.changed)) {
    const a = get<BusinessDaysLocation>('old', path);
    const c = diffLocation(a, get('new', path));
    if (c) out.locations.changed.push(c);
    // A workweek change reaching back in time changes past business-day counts.
    const from = c?.workweek_from === null ? a.range.start : c?.workweek_from;
    if (from !== undefined && from < today) {
      out.warnings.push({ subject: location, date: from, change: 'workweek changed', when: `from ${c!.workweek_from ?? 'the start of the data'}` });
    }
  }
  for (const [path, location, year] of match(YEAR_FILE, ch.changed)) {
    // Datasets built before basis and working days existed read as rules with none.
    const a = get<Partial<BusinessDaysYear> & Pick<BusinessDaysYear, 'holidays'>>('old', path);
    const b = get<Partial<BusinessDaysYear> & Pick<BusinessDaysYear, 'holidays'>>('new', path);
    out.holidays.push(...diffHolidays(location, Number(year), a.holidays, b.holidays, today));
    const [basisA, basisB] = [a.basis ?? 'rules', b.basis ?? 'rules'];
    if (basisA !== basisB) out.basis.push({ location, year: Number(year), old: basisA, new: basisB });
    out.working_days.push(...diffWorkingDays(location, a.working_days ?? [], b.working_days ?? [], today));
  }
  for (const w of out.working_days.filter((c) => c.past)) {
    out.warnings.push({ subject: w.location, date: w.date, change: `working day ${w.kind}: ${w.name}`, when: w.date });
  }
  const yearFiles = (side: 'old' | 'new', paths: string[], kind: YearChange['kind']) => {
    for (const [path, location, year] of match(YEAR_FILE, paths)) {
      if (whole.has(location)) continue;
      const holidays = get<BusinessDaysYear>(side, path).holidays;
      out.years.push({ location, year: Number(year), kind, holidays: holidays.length, past_holidays: holidays.filter((h) => h.date < today).length });
    }
  };
  yearFiles('new', ch.added, 'added');
  yearFiles('old', ch.removed, 'removed');

  for (const h of out.holidays.filter((c) => c.past)) {
    const date = h.old_date && h.old_date < h.date ? h.old_date : h.date;
    out.warnings.push({ subject: h.location, date, change: holidayChangeText(h), when: h.old_date ? `${h.old_date} → ${h.date}` : h.date });
  }
  for (const y of out.years.filter((c) => c.past_holidays > 0)) {
    out.warnings.push({ subject: y.location, date: `${y.year}-01-01`, change: `year file ${y.kind}, with past holidays`, when: String(y.year) });
  }
  out.holidays.sort(byKey((c) => `${c.location}\0${c.date}\0${c.name}`));
  out.basis.sort(byKey((c) => `${c.location}\0${c.year}`));
  out.working_days.sort(byKey((c) => `${c.location}\0${c.date}\0${c.kind}`));
  out.years.sort(byKey((c) => `${c.location}\0${c.year}`));
  out.locations.changed.sort(byKey((c) => c.location));
}

function diffTimezones(get: Get, ch: FileChanges, today: string, out: DataDiff): void {
  out.zones.added = match(ZONE_FILE, ch.added).map((m) => m[1]);
  out.zones.removed = match(ZONE_FILE, ch.removed).map((m) => m[1]);
  const tally = new Map<string, DataDiff['zones']['metadata'][number]>();
  for (const [path, zone] of match(ZONE_FILE, ch.changed)) {
    const a = get<TimezoneZone>('old', path);
    const b = get<TimezoneZone>('new', path);
    for (const f of fieldChanges(pick(a, ZONE_METADATA), pick(b, ZONE_METADATA))) {
      const k = JSON.stringify([f.field, f.old, f.new]);
      const t = tally.get(k) ?? { ...f, zones: 0 };
      t.zones++;
      tally.set(k, t);
    }
    const c = diffZone(a, b);
    if (!c) continue;
    out.zones.changed.push(c);
    // Compare with the start of today in UTC: any earlier instant is history someone may have recorded.
    if (c.offset && c.offset.at < `${today}T00:00:00Z`) {
      const o = c.offset;
      out.warnings.push({ subject: zone, date: o.at, change: offsetChange(o), when: `from ${o.at}` });
    }
  }
  out.zones.metadata = [...tally.values()].sort(byKey((t) => t.field));
  if (ch.changed.includes(ZONES_INDEX)) {
    out.zones.aliases = diffMaps(get<TimezonesIndex>('old', ZONES_INDEX).aliases, get<TimezonesIndex>('new', ZONES_INDEX).aliases);
  }
}

function diffRecords(get: Get, ch: FileChanges, re: RegExp, skip: string[]) {
  const codes = (paths: string[]) => match(re, paths).map((m) => m[1]).filter((c) => c !== 'index');
  const changed = match(re, ch.changed)
    .filter((m) => m[1] !== 'index')
    .map(([path, code]) => ({ code, fields: fieldChanges(get('old', path), get('new', path), skip) }))
    .filter((c) => c.fields.length > 0);
  return { added: codes(ch.added), removed: codes(ch.removed), changed };
}

/** Everything that differs between two datasets, given their changed files (see filesToLoad). */
export function diffDatasets(oldSnap: Snapshot, newSnap: Snapshot, today: string): DataDiff {
  const ch = compareManifests(oldSnap.manifest, newSnap.manifest);
  const none: AliasChanges = { added: [], removed: [], retargeted: [] };
  const out: DataDiff = {
    today,
    old_version: oldSnap.manifest.version,
    new_version: newSnap.manifest.version,
    sources: diffSources(oldSnap.manifest.sources, newSnap.manifest.sources),
    files: { added: ch.added.length, removed: ch.removed.length, changed: ch.changed.length, unchanged: ch.unchanged },
    basis: [],
    warnings: [],
    working_days: [],
    locations: { added: [], removed: [], changed: [] },
    holidays: [],
    years: [],
    zones: { added: [], removed: [], changed: [], aliases: none, metadata: [] },
    travel: { added: [], removed: [], changed: [], regions: none },
    countries: { added: [], removed: [], changed: [] },
    other_files: [...ch.changed, ...ch.added, ...ch.removed].filter((p) => !isDetailedPath(p)).sort(),
  };
  const get = getter(oldSnap, newSnap);
  diffBusinessDays(get, ch, today, out);
  diffTimezones(get, ch, today, out);
  // power_compatibility and climate are request-time fields, null in the files.
  out.travel = { ...diffRecords(get, ch, TRAVEL_FILE, ['power_compatibility', 'climate']), regions: none };
  if (ch.changed.includes(TRAVEL_INDEX)) out.travel.regions = diffMaps(get<TravelIndex>('old', TRAVEL_INDEX).regions, get<TravelIndex>('new', TRAVEL_INDEX).regions);
  // links are derived from code and time zones, reported through those.
  out.countries = diffRecords(get, ch, COUNTRY_FILE, ['links']);
  out.warnings.sort(byKey((w) => `${w.date}\0${w.subject}\0${w.change}`));
  return out;
}

export function hasChanges(diff: DataDiff): boolean {
  return diff.files.added + diff.files.removed + diff.files.changed > 0;
}

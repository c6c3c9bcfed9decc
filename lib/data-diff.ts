/**
 * The data changelog: what changed between two builds of dist-data/v1, in
 * terms a reviewer checks (holidays added, removed or moved; time zone
 * offsets; travel facts), and which of those changes touch the past.
 * Pure: the caller reads the files; `today` is an input, never the clock.
 *
 * Flow: compareManifests() finds the files whose sha256 differs, so only those
 * are parsed (a dataset has ~30,000 files); filesToLoad() says which of them
 * to parse; diffDatasets() turns them into findings; renderMarkdown() writes
 * the pull-request body.
 */
import { formatOffset } from './zone-timeline.js';
import type {
  BusinessDaysLocation,
  BusinessDaysLocations,
  BusinessDaysYear,
  Holiday,
  Manifest,
  TimezoneZone,
  TimezonesIndex,
  TravelIndex,
  ZoneState,
  ZoneTransition,
} from './schema-types.js';

// ---------------------------------------------------------------- findings

export interface FileChanges {
  added: string[];
  removed: string[];
  changed: string[];
  unchanged: number;
}

/** One field that differs; `field` is a dotted path (power.voltage). */
export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
}

export interface HolidayChange {
  location: string;
  year: number;
  kind: 'added' | 'removed' | 'moved' | 'changed';
  /** The holiday's name on the old side (the new side for an added one). */
  name: string;
  /** Old date for removed, new date otherwise. */
  date: string;
  /** For moved: the date it left. */
  old_date?: string;
  /** Fields other than the date that differ (changed; moved with extra changes). */
  fields: FieldChange[];
  /** The old or the new date is before `today`. */
  past: boolean;
}

/** A whole year file appeared or disappeared for a location that exists on both sides. */
export interface YearChange {
  location: string;
  year: number;
  kind: 'added' | 'removed';
  holidays: number;
  /** Holidays of that year dated before `today`. */
  past_holidays: number;
}

export interface LocationRef {
  location: string;
  name: string;
}

export interface LocationChange {
  location: string;
  /** First date whose workweek differs (null: from the start of the data); absent when workweeks are equal. */
  workweek_from?: string | null;
  old_workweeks?: BusinessDaysLocation['workweeks'];
  new_workweeks?: BusinessDaysLocation['workweeks'];
  fields: FieldChange[];
}

export interface OffsetDifference {
  /** First instant (UTC) where the offset in force differs. */
  at: string;
  old_offset_minutes: number;
  new_offset_minutes: number;
}

export interface TransitionSummary {
  count: number;
  first: string | null;
  last: string | null;
}

export interface ZoneChange {
  zone: string;
  offset?: OffsetDifference;
  standard_offset?: { old: number; new: number };
  transitions_added: TransitionSummary;
  transitions_removed: TransitionSummary;
  /** name, country, comment, aliases. */
  fields: FieldChange[];
}

export interface AliasChanges {
  added: { alias: string; target: string }[];
  removed: { alias: string; target: string }[];
  retargeted: { alias: string; old: string; new: string }[];
}

export interface RecordChange {
  code: string;
  fields: FieldChange[];
}

export interface Warning {
  /** Location code or zone id. */
  subject: string;
  /** The earliest past date or instant the change touches. */
  date: string;
  /** What changed, without its date: "holiday removed: Christmas Eve". */
  change: string;
  /** Its date as shown: "2025-12-24", "2025-12-28 → 2025-12-29", "from 2024-03-31T01:00:00Z". */
  when: string;
}

export interface DataDiff {
  today: string;
  old_version: string;
  new_version: string;
  sources: { name: string; old: string | null; new: string | null }[];
  files: { added: number; removed: number; changed: number; unchanged: number };
  warnings: Warning[];
  locations: { added: LocationRef[]; removed: LocationRef[]; changed: LocationChange[] };
  holidays: HolidayChange[];
  years: YearChange[];
  zones: {
    added: string[];
    removed: string[];
    changed: ZoneChange[];
    aliases: AliasChanges;
    /** Fields every zone document carries (tzdata_version, window), tallied per old → new. */
    metadata: { field: string; old: unknown; new: unknown; zones: number }[];
  };
  travel: { added: string[]; removed: string[]; changed: RecordChange[]; regions: AliasChanges };
  countries: { added: string[]; removed: string[]; changed: RecordChange[] };
  /** Changed, added or removed files no section above reads (listings, climate, astronomy, attribution). */
  other_files: string[];
}

/** Parsed files of one side: its manifest and the files filesToLoad() asked for. */
export interface Snapshot {
  manifest: Manifest;
  files: ReadonlyMap<string, unknown>;
}

// ---------------------------------------------------------------- which files

const YEAR_FILE = /^business-days\/([^/]+)\/(\d{4})\.json$/;
const LOCATION_FILE = /^business-days\/([^/]+)\/index\.json$/;
const ZONE_FILE = /^timezones\/zones\/(.+)\.json$/;
const TRAVEL_FILE = /^travel\/([^/]+)\.json$/;
const COUNTRY_FILE = /^countries\/([^/]+)\.json$/;
const LOCATIONS_INDEX = 'business-days/index.json';
const ZONES_INDEX = 'timezones/index.json';
const TRAVEL_INDEX = 'travel/index.json';

/** Files the diff reads field by field; every other file is only listed. */
export function isDetailedPath(path: string): boolean {
  if (path === LOCATIONS_INDEX || path === ZONES_INDEX || path === TRAVEL_INDEX) return true;
  if (YEAR_FILE.test(path) || LOCATION_FILE.test(path) || ZONE_FILE.test(path)) return true;
  // countries/index.json and the pages/ listings repeat the per-country documents.
  return (TRAVEL_FILE.test(path) || COUNTRY_FILE.test(path)) && !path.endsWith('/index.json');
}

/** Files whose sha256 differs or that exist on one side only. The manifest lists every file but itself. */
export function compareManifests(oldManifest: Manifest, newManifest: Manifest): FileChanges {
  const changes: FileChanges = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const [path, file] of Object.entries(oldManifest.files)) {
    const other = newManifest.files[path];
    if (!other) changes.removed.push(path);
    else if (other.sha256 !== file.sha256) changes.changed.push(path);
    else changes.unchanged++;
  }
  for (const path of Object.keys(newManifest.files)) if (!oldManifest.files[path]) changes.added.push(path);
  for (const list of [changes.added, changes.removed, changes.changed]) list.sort();
  return changes;
}

/** The paths to parse on each side. */
export function filesToLoad(changes: FileChanges): { old: string[]; new: string[] } {
  return {
    old: [...changes.changed, ...changes.removed].filter(isDetailedPath).sort(),
    new: [...changes.changed, ...changes.added].filter(isDetailedPath).sort(),
  };
}

// ---------------------------------------------------------------- generic helpers

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const bo = b as Record<string, unknown>;
  return ka.length === kb.length && ka.every((k) => k in bo && deepEqual((a as Record<string, unknown>)[k], bo[k]));
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Leaf-level differences of two JSON values; objects are walked, arrays
 * compared whole (a plug list is one fact). `skip` drops top-level fields.
 */
export function fieldChanges(a: unknown, b: unknown, skip: readonly string[] = [], prefix = ''): FieldChange[] {
  if (!isPlainObject(a) || !isPlainObject(b)) return deepEqual(a, b) ? [] : [{ field: prefix, old: a, new: b }];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !skip.includes(k)).sort();
  return keys.flatMap((k) => fieldChanges(a[k], b[k], [], prefix ? `${prefix}.${k}` : k));
}

const pick = (o: object, keys: readonly string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => keys.includes(k)));

const byKey = <T>(key: (t: T) => string) => (x: T, y: T) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0);

function diffMaps(a: Record<string, string>, b: Record<string, string>): AliasChanges {
  const out: AliasChanges = { added: [], removed: [], retargeted: [] };
  for (const [alias, target] of Object.entries(a)) {
    if (!(alias in b)) out.removed.push({ alias, target });
    else if (b[alias] !== target) out.retargeted.push({ alias, old: target, new: b[alias] });
  }
  for (const [alias, target] of Object.entries(b)) if (!(alias in a)) out.added.push({ alias, target });
  out.added.sort(byKey((x) => x.alias));
  out.removed.sort(byKey((x) => x.alias));
  out.retargeted.sort(byKey((x) => x.alias));
  return out;
}

// ---------------------------------------------------------------- holidays

const HOLIDAY_FIELDS_SKIP = ['date'];

interface Pairing {
  old: Holiday[];
  new: Holiday[];
}

/**
 * Pairs the unmatched holidays of both sides by `match`, nearest dates first,
 * and removes the pairs from the pools.
 */
function pairBy(pool: Pairing, match: (a: Holiday, b: Holiday) => boolean): [Holiday, Holiday][] {
  const candidates: { i: number; j: number; gap: number }[] = [];
  pool.old.forEach((a, i) =>
    pool.new.forEach((b, j) => {
      if (match(a, b)) candidates.push({ i, j, gap: Math.abs(dayGap(a.date, b.date)) });
    }),
  );
  candidates.sort((x, y) => x.gap - y.gap || pool.old[x.i].date.localeCompare(pool.old[y.i].date) || x.j - y.j);
  const usedOld = new Set<number>();
  const usedNew = new Set<number>();
  const pairs: [Holiday, Holiday][] = [];
  for (const c of candidates) {
    if (usedOld.has(c.i) || usedNew.has(c.j)) continue;
    usedOld.add(c.i);
    usedNew.add(c.j);
    pairs.push([pool.old[c.i], pool.new[c.j]]);
  }
  pool.old = pool.old.filter((_, i) => !usedOld.has(i));
  pool.new = pool.new.filter((_, j) => !usedNew.has(j));
  return pairs;
}

/** Rough day distance of two YYYY-MM-DD dates, only to prefer the nearest candidate. */
function dayGap(a: string, b: string): number {
  const n = (d: string) => Number(d.slice(0, 4)) * 372 + Number(d.slice(5, 7)) * 31 + Number(d.slice(8, 10));
  return n(b) - n(a);
}

/**
 * The changes between two holiday lists of one location and year. Order of
 * matching: same date and name (fields may differ); same name on another
 * date (moved); substitute days replacing the same date (moved and
 * renamed); the same date under another name (changed). The rest were
 * added or removed.
 */
export function diffHolidays(location: string, year: number, oldList: Holiday[], newList: Holiday[], today: string): HolidayChange[] {
  const pool: Pairing = { old: [...oldList], new: [...newList] };
  const out: HolidayChange[] = [];
  const record = (kind: HolidayChange['kind'], a: Holiday | undefined, b: Holiday | undefined) => {
    const h = (b ?? a)!;
    const fields = a && b ? fieldChanges(a, b, HOLIDAY_FIELDS_SKIP) : [];
    if (kind === 'changed' && fields.length === 0) return;
    const dates = [a?.date, b?.date].filter((d): d is string => d !== undefined);
    out.push({
      location,
      year,
      kind,
      name: (a ?? h).name,
      date: kind === 'removed' ? a!.date : h.date,
      ...(kind === 'moved' ? { old_date: a!.date } : {}),
      fields,
      past: dates.some((d) => d < today),
    });
  };
  for (const [a, b] of pairBy(pool, (a, b) => a.date === b.date && a.name === b.name)) record('changed', a, b);
  for (const [a, b] of pairBy(pool, (a, b) => a.name === b.name)) record('moved', a, b);
  const sameSubstitute = (a: Holiday, b: Holiday) => a.substitute && b.substitute && a.observed_for !== null && a.observed_for === b.observed_for;
  for (const [a, b] of pairBy(pool, sameSubstitute)) record('moved', a, b);
  for (const [a, b] of pairBy(pool, (a, b) => a.date === b.date)) record('changed', a, b);
  for (const a of pool.old) record('removed', a, undefined);
  for (const b of pool.new) record('added', undefined, b);
  return out.sort(byKey((c) => `${c.date}\0${c.name}\0${c.kind}`));
}

// ---------------------------------------------------------------- locations and workweeks

type Workweeks = BusinessDaysLocation['workweeks'];

function workweekAt(periods: Workweeks, date: string | null): string | undefined {
  const p = periods.find((w) => (date === null ? w.from === null : (w.from === null || w.from <= date) && (w.until === null || date <= w.until)));
  return p ? p.workweek.join(',') : undefined;
}

/**
 * First date whose workweek differs (null: from the start), or undefined
 * when every date has the same workweek. Periods are contiguous and
 * inclusive, so the first difference falls on some period's `from`.
 */
export function firstWorkweekDifference(a: Workweeks, b: Workweeks): string | null | undefined {
  const starts = [...new Set([...a, ...b].map((w) => w.from).filter((d): d is string => d !== null))].sort();
  for (const d of [null, ...starts]) if (workweekAt(a, d) !== workweekAt(b, d)) return d;
  return undefined;
}

/** Fields compared besides workweeks; range, years and the day types' basis text follow from the holiday files and source versions. */
const LOCATION_SKIP = ['workweeks', 'range', 'years', 'day_types'];

export function diffLocation(a: BusinessDaysLocation, b: BusinessDaysLocation): LocationChange | undefined {
  const fields = fieldChanges(a, b, LOCATION_SKIP);
  for (const t of ['business', 'banking', 'government'] as const) {
    if (a.day_types[t].data !== b.day_types[t].data) fields.push({ field: `day_types.${t}.data`, old: a.day_types[t].data, new: b.day_types[t].data });
  }
  const from = firstWorkweekDifference(a.workweeks, b.workweeks);
  if (from === undefined && fields.length === 0) return undefined;
  return {
    location: a.location,
    ...(from !== undefined ? { workweek_from: from, old_workweeks: a.workweeks, new_workweeks: b.workweeks } : {}),
    fields,
  };
}

// ---------------------------------------------------------------- time zones

/** The states in force at `lo`, then at each later transition before `hi`: the first with another offset. */
export function firstOffsetDifference(a: TimezoneZone, b: TimezoneZone): OffsetDifference | undefined {
  const lo = a.window.start > b.window.start ? a.window.start : b.window.start;
  const hi = a.window.end < b.window.end ? a.window.end : b.window.end;
  const ta = a.transitions;
  const tb = b.transitions;
  let i = 0;
  let j = 0;
  let sa: ZoneState | ZoneTransition = a.initial;
  let sb: ZoneState | ZoneTransition = b.initial;
  let at = lo;
  for (;;) {
    while (i < ta.length && ta[i].at <= at) sa = ta[i++];
    while (j < tb.length && tb[j].at <= at) sb = tb[j++];
    if (sa.offset_minutes !== sb.offset_minutes) return { at, old_offset_minutes: sa.offset_minutes, new_offset_minutes: sb.offset_minutes };
    const next = [ta[i]?.at, tb[j]?.at].filter((x): x is string => x !== undefined).sort()[0];
    if (next === undefined || next >= hi) return undefined;
    at = next;
  }
}

function summarize(transitions: ZoneTransition[]): TransitionSummary {
  return { count: transitions.length, first: transitions[0]?.at ?? null, last: transitions.at(-1)?.at ?? null };
}

/** Fields every zone document repeats; tallied once for all zones. */
const ZONE_METADATA = ['tzdata_version', 'window'];
const ZONE_SKIP = ['id', 'initial', 'transitions', 'standard_offset', 'standard_offset_minutes', ...ZONE_METADATA];

/**
 * Differences of one zone's documents. Transitions are compared inside the
 * windows both sides cover, so a longer window alone is not reported as
 * hundreds of added transitions.
 */
export function diffZone(a: TimezoneZone, b: TimezoneZone): ZoneChange | undefined {
  const lo = a.window.start > b.window.start ? a.window.start : b.window.start;
  const hi = a.window.end < b.window.end ? a.window.end : b.window.end;
  const key = (t: ZoneTransition) => `${t.at}|${t.offset_minutes}|${t.abbreviation}|${t.is_dst}`;
  const inside = (z: TimezoneZone) => z.transitions.filter((t) => t.at >= lo && t.at < hi);
  const ka = new Set(inside(a).map(key));
  const kb = new Set(inside(b).map(key));
  const change: ZoneChange = {
    zone: a.id,
    transitions_added: summarize(inside(b).filter((t) => !ka.has(key(t)))),
    transitions_removed: summarize(inside(a).filter((t) => !kb.has(key(t)))),
    fields: fieldChanges(a, b, ZONE_SKIP),
  };
  const offset = firstOffsetDifference(a, b);
  if (offset) change.offset = offset;
  if (a.standard_offset_minutes !== b.standard_offset_minutes) change.standard_offset = { old: a.standard_offset_minutes, new: b.standard_offset_minutes };
  const empty = !offset && !change.standard_offset && !change.transitions_added.count && !change.transitions_removed.count && !change.fields.length;
  return empty ? undefined : change;
}

// ---------------------------------------------------------------- the whole dataset

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
    const a = get<BusinessDaysYear>('old', path).holidays;
    const b = get<BusinessDaysYear>('new', path).holidays;
    out.holidays.push(...diffHolidays(location, Number(year), a, b, today));
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
    warnings: [],
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

// ---------------------------------------------------------------- Markdown

/** Caps that keep a pull-request body readable (GitHub stops at 65,536 characters); --json has everything. */
export const LIMITS = { dates: 6, linesPerGroup: 15, groups: 40, items: 40, codes: 12, chars: 60_000 };

// Underscores are left alone: GitHub never reads them as emphasis inside a word (local_name, Buenos_Aires).
const MD_SPECIAL = /[\\`*[\]<>|#]/g;
const md = (text: string) => text.replace(MD_SPECIAL, (c) => `\\${c}`);
const code = (text: string) => `\`${text}\``;

function capped<T>(items: T[], max: number, show: (t: T) => string, what = 'more'): string[] {
  const lines = items.slice(0, max).map(show);
  if (items.length > max) lines.push(`- … and ${items.length - max} ${what}`);
  return lines;
}

function codeList(codes: string[], max = LIMITS.codes): string {
  const shown = codes.slice(0, max).map(code).join(', ');
  return codes.length > max ? `${shown} and ${codes.length - max} more` : shown;
}

export function formatValue(v: unknown): string {
  if (typeof v === 'string') return /^[\p{L}\p{N}_+.:/-]+$/u.test(v) ? v : JSON.stringify(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) return `[${v.map(formatValue).join(', ')}]`;
  const text = JSON.stringify(v) ?? 'absent';
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** "power.voltage 230 → 220"; lists of records (subdivisions, currencies) as "+a −r items". */
export function formatField(f: FieldChange): string {
  if (Array.isArray(f.old) && Array.isArray(f.new) && [...f.old, ...f.new].some(isPlainObject)) {
    const keyOf = (x: unknown) => JSON.stringify(x);
    const [ko, kn] = [new Set(f.old.map(keyOf)), new Set(f.new.map(keyOf))];
    const added = f.new.filter((x) => !ko.has(keyOf(x)));
    const removed = f.old.filter((x) => !kn.has(keyOf(x)));
    const label = (x: unknown) => (isPlainObject(x) && typeof x.code === 'string' ? x.code : formatValue(x));
    const parts = [...added.slice(0, 3).map((x) => `+${label(x)}`), ...removed.slice(0, 3).map((x) => `−${label(x)}`)];
    return `${f.field} +${added.length} −${removed.length} items (${parts.join(' ')}${added.length + removed.length > parts.length ? ' …' : ''})`;
  }
  return `${f.field} ${formatValue(f.old)} → ${formatValue(f.new)}`;
}

const fieldsText = (fields: FieldChange[]) => fields.map(formatField).join('; ');

/** "holiday changed: Marine Day (name "Marine Day" → "Ocean Day")", without the date. */
export function holidayChangeText(h: HolidayChange): string {
  return `holiday ${h.kind}: ${h.name}${h.fields.length ? ` (${fieldsText(h.fields)})` : ''}`;
}

const offsetChange = (o: OffsetDifference) => `offset changed (${formatOffset(o.old_offset_minutes)} → ${formatOffset(o.new_offset_minutes)})`;
const offsetText = (o: OffsetDifference) => `${offsetChange(o)} from ${o.at}`;

/**
 * One line per kind of change of one location, its dates listed:
 * "added **Peace Festival**: 2026-08-08, 2027-08-08".
 */
function locationLines(holidays: HolidayChange[], years: YearChange[]): string[] {
  const groups = new Map<string, string[]>();
  for (const h of holidays) {
    const extra = h.fields.length ? ` (${md(fieldsText(h.fields))})` : '';
    const head = `${h.kind} **${md(h.name)}**${extra}`;
    const date = h.kind === 'moved' ? `${h.old_date} → ${h.date}` : h.date;
    groups.set(head, [...(groups.get(head) ?? []), h.past ? `${date} ⚠️` : date]);
  }
  const lines = [...groups].map(([head, dates]) => `- ${head}: ${listCapped(dates, LIMITS.dates)}`);
  for (const kind of ['added', 'removed'] as const) {
    const ys = years.filter((y) => y.kind === kind);
    if (ys.length) lines.push(`- year files ${kind}: ${ys.map((y) => (y.past_holidays ? `${y.year} ⚠️` : String(y.year))).join(', ')}`);
  }
  return lines;
}

/** Locations with the same lines share one heading (a national change shows up in every state once). */
function holidaySection(diff: DataDiff): string[] {
  const locations = [...new Set([...diff.holidays.map((h) => h.location), ...diff.years.map((y) => y.location)])].sort();
  const groups = new Map<string, { locations: string[]; lines: string[] }>();
  for (const loc of locations) {
    const lines = locationLines(
      diff.holidays.filter((h) => h.location === loc),
      diff.years.filter((y) => y.location === loc),
    );
    const key = lines.join('\n');
    const g = groups.get(key) ?? { locations: [], lines };
    g.locations.push(loc);
    groups.set(key, g);
  }
  if (!groups.size) return [];
  const count = (k: HolidayChange['kind']) => diff.holidays.filter((h) => h.kind === k).length;
  const out = [
    '### Holidays',
    '',
    `${count('added')} added, ${count('removed')} removed, ${count('moved')} moved, ${count('changed')} changed in ${locations.length} location${locations.length === 1 ? '' : 's'}; ⚠️ marks dates before ${diff.today}.`,
  ];
  for (const g of [...groups.values()].slice(0, LIMITS.groups)) {
    out.push('', `#### ${codeList(g.locations)}`, '');
    out.push(...capped(g.lines, LIMITS.linesPerGroup, (l) => l, 'more changes'));
  }
  if (groups.size > LIMITS.groups) out.push('', `… and ${groups.size - LIMITS.groups} more location groups (run with --json for all).`);
  return out;
}

const WEEKDAY_SHORT: Record<string, string> = { monday: 'Mon', tuesday: 'Tue', wednesday: 'Wed', thursday: 'Thu', friday: 'Fri', saturday: 'Sat', sunday: 'Sun' };

function workweeksText(w: Workweeks): string {
  return w.map((p) => `${p.workweek.map((d) => WEEKDAY_SHORT[d] ?? d).join(' ')}${p.from || p.until ? ` (${p.from ?? '…'} to ${p.until ?? '…'})` : ''}`).join('; ');
}

function locationSection(diff: DataDiff): string[] {
  const { added, removed, changed } = diff.locations;
  if (!added.length && !removed.length && !changed.length) return [];
  const out = ['### Business-day locations', ''];
  const ref = (l: LocationRef) => `${code(l.location)} ${md(l.name)}`;
  if (added.length) out.push(`- Added (${added.length}): ${added.slice(0, LIMITS.items).map(ref).join(', ')}${added.length > LIMITS.items ? ', …' : ''}`);
  if (removed.length) out.push(`- Removed (${removed.length}): ${removed.slice(0, LIMITS.items).map(ref).join(', ')}${removed.length > LIMITS.items ? ', …' : ''}`);
  out.push(
    ...capped(changed, LIMITS.items, (c) => {
      const parts = [];
      if (c.workweek_from !== undefined) {
        parts.push(`workweek differs from ${c.workweek_from ?? 'the start of the data'}: ${workweeksText(c.old_workweeks!)} → ${workweeksText(c.new_workweeks!)}`);
      }
      if (c.fields.length) parts.push(md(fieldsText(c.fields)));
      return `- ${code(c.location)}: ${parts.join('; ')}`;
    }),
  );
  return out;
}

function transitionsText(verb: string, t: TransitionSummary): string {
  if (!t.count) return '';
  const span = t.first === t.last ? t.first : `${t.first} … ${t.last}`;
  return `${t.count} transition${t.count === 1 ? '' : 's'} ${verb} (${span})`;
}

function aliasLines(label: string, a: AliasChanges): string[] {
  const parts = [
    ...a.added.map((x) => `+${code(x.alias)} → ${code(x.target)}`),
    ...a.removed.map((x) => `−${code(x.alias)} (was → ${code(x.target)})`),
    ...a.retargeted.map((x) => `${code(x.alias)}: ${code(x.old)} → ${code(x.new)}`),
  ];
  if (!parts.length) return [];
  return [`- ${label}: ${parts.slice(0, LIMITS.codes).join(', ')}${parts.length > LIMITS.codes ? ` and ${parts.length - LIMITS.codes} more` : ''}`];
}

function zoneSection(diff: DataDiff): string[] {
  const z = diff.zones;
  const lines: string[] = [];
  if (z.added.length) lines.push(`- Zones added: ${codeList(z.added)}`);
  if (z.removed.length) lines.push(`- Zones removed: ${codeList(z.removed)}`);
  lines.push(
    ...capped(z.changed, LIMITS.items, (c) => {
      const parts = [
        c.offset ? offsetText(c.offset) + (c.offset.at < `${diff.today}T00:00:00Z` ? ' ⚠️' : '') : 'same offsets',
        c.standard_offset ? `standard offset ${formatOffset(c.standard_offset.old)} → ${formatOffset(c.standard_offset.new)}` : '',
        transitionsText('added', c.transitions_added),
        transitionsText('removed', c.transitions_removed),
        c.fields.length ? md(fieldsText(c.fields)) : '',
      ];
      return `- ${code(c.zone)}: ${parts.filter(Boolean).join('; ')}`;
    }),
  );
  lines.push(...aliasLines('Aliases', z.aliases));
  for (const m of z.metadata) lines.push(`- ${m.field} ${formatValue(m.old)} → ${formatValue(m.new)} in ${m.zones} zone document${m.zones === 1 ? '' : 's'}`);
  return lines.length ? ['### Time zones', '', ...lines] : [];
}

function recordSection(title: string, noun: string, r: { added: string[]; removed: string[]; changed: RecordChange[] }, extra: string[] = []): string[] {
  const lines: string[] = [];
  if (r.added.length) lines.push(`- ${noun} added: ${codeList(r.added)}`);
  if (r.removed.length) lines.push(`- ${noun} removed: ${codeList(r.removed)}`);
  lines.push(...capped(r.changed, LIMITS.items, (c) => `- ${code(c.code)}: ${md(fieldsText(c.fields))}`), ...extra);
  return lines.length ? [`### ${title}`, '', ...lines] : [];
}

/** "a, b, c … and 3 more" */
function listCapped(items: string[], max: number): string {
  return items.length > max ? `${items.slice(0, max).join(', ')} … and ${items.length - max} more` : items.join(', ');
}

/**
 * One line per change, its dates listed, and the locations with exactly the
 * same dates on one line: a national holiday removed in 2020-2025 is one
 * line, not a hundred.
 */
function warningSection(diff: DataDiff): string[] {
  if (!diff.warnings.length) return [];
  const perSubject = new Map<string, { subject: string; change: string; date: string; whens: string[] }>();
  for (const w of diff.warnings) {
    const k = `${w.subject}\0${w.change}`;
    const g = perSubject.get(k) ?? { subject: w.subject, change: w.change, date: w.date, whens: [] };
    g.whens.push(w.when);
    perSubject.set(k, g);
  }
  const lines = new Map<string, { subjects: string[]; change: string; date: string; whens: string[] }>();
  for (const g of perSubject.values()) {
    const k = `${g.change}\0${g.whens.join('\0')}`;
    const l = lines.get(k) ?? { subjects: [], change: g.change, date: g.date, whens: g.whens };
    l.subjects.push(g.subject);
    lines.set(k, l);
  }
  const sorted = [...lines.values()].sort(byKey((l) => `${l.date}\0${l.subjects[0]}\0${l.change}`));
  const n = diff.warnings.length;
  return [
    `### ⚠️ Warnings: ${n} change${n === 1 ? '' : 's'} to dates before ${diff.today}`,
    '',
    'Past business days, payroll and invoices computed with the old data would differ. Check each against an official source before merging.',
    '',
    ...capped(sorted, LIMITS.items, (l) => `- ${codeList(l.subjects, 6)}: ${md(l.change)} — ${listCapped(l.whens, LIMITS.dates)}`),
  ];
}

function otherSection(diff: DataDiff): string[] {
  if (!diff.other_files.length) return [];
  const folders = new Map<string, number>();
  for (const p of diff.other_files) {
    const folder = p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : p;
    folders.set(folder, (folders.get(folder) ?? 0) + 1);
  }
  return ['### Other files', '', ...capped([...folders], LIMITS.items, ([f, n]) => `- ${code(f)}${f.endsWith('/') ? `: ${n} file${n === 1 ? '' : 's'}` : ''}`)];
}

/** The changelog as Markdown, warnings first; "No data changes." when no file differs. */
export function renderMarkdown(diff: DataDiff): string {
  const sources = diff.sources.map((s) => `${s.name} ${s.old ?? '(none)'} → ${s.new ?? '(none)'}`).join(', ');
  if (!hasChanges(diff)) {
    return ['No data changes.', '', `Dataset version ${diff.new_version}${sources ? `; sources changed without changing any file: ${sources}` : ''}.`, ''].join('\n');
  }
  const f = diff.files;
  const head = [
    '## Data changes',
    '',
    `- Dataset version: ${code(diff.old_version)} → ${code(diff.new_version)}`,
    `- Sources: ${sources ? md(sources) : 'unchanged'}`,
    `- Files: ${f.changed} changed, ${f.added} added, ${f.removed} removed, ${f.unchanged} unchanged`,
  ];
  const sections = [
    warningSection(diff),
    holidaySection(diff),
    locationSection(diff),
    zoneSection(diff),
    recordSection('Travel', 'Destinations', diff.travel, aliasLines('Region codes', diff.travel.regions)),
    recordSection('Countries', 'Countries', diff.countries),
    otherSection(diff),
  ].filter((s) => s.length);
  let text = [...head, ...sections.flatMap((s) => ['', ...s])].join('\n') + '\n';
  if (text.length > LIMITS.chars) text = `${text.slice(0, LIMITS.chars)}\n\n… (truncated; run \`npm run diff-data -- OLD NEW --json\` for everything)\n`;
  return text;
}

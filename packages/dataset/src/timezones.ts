/**
 * IANA time zones (data/timezones/): a zone's document, and the offset in
 * force at an instant, from the zone's initial state and its transitions.
 */
import { once, readJson } from './read-json.js';
import type { TimezonesIndex, TimezoneZone, ZoneState, ZoneTransition } from './schema-types.js';

/** The state in force at an instant, and the change that ends it (null: none before the window's end). */
export interface OffsetAt extends ZoneState {
  next_transition: ZoneTransition | null;
}

/** Lower-cased ids and aliases -> canonical id; ids are only ever taken from here. */
const lookup = once(() => {
  const index = readJson<TimezonesIndex>('timezones/index.json');
  const map = new Map(index.zones.map((z) => [z.id.toLowerCase(), z.id]));
  for (const [alias, id] of Object.entries(index.aliases)) map.set(alias.toLowerCase(), id);
  return map;
});

/** Transition instants in ms, parsed once per zone document. */
const instants = new WeakMap<TimezoneZone, number[]>();

/**
 * A zone by IANA id or alias (tzdata link), any case; the answer is the canonical zone.
 * @example getTimezone('US/Eastern')?.id // 'America/New_York'
 */
export function getTimezone(id: string): TimezoneZone | undefined {
  if (typeof id !== 'string' || id.length > 64) return undefined;
  const canonical = lookup().get(id.toLowerCase());
  return canonical === undefined ? undefined : readJson<TimezoneZone>(`timezones/zones/${canonical}.json`);
}

/**
 * The offset, abbreviation and DST flag in force at an instant; undefined for
 * an unknown zone or an instant outside the dataset's window (2000-2045).
 * @example getOffset('America/New_York', Date.UTC(2026, 6, 1))?.offset_minutes // -240
 */
export function getOffset(id: string, at: Date | number): OffsetAt | undefined {
  const zone = getTimezone(id);
  const ms = at instanceof Date ? at.getTime() : at;
  if (zone === undefined || typeof ms !== 'number' || !Number.isFinite(ms)) return undefined;
  // Before the window the initial state may not have held; after it, rules may change.
  if (ms < Date.parse(zone.window.start) || ms >= Date.parse(zone.window.end)) return undefined;
  let starts = instants.get(zone);
  if (starts === undefined) {
    starts = zone.transitions.map((t) => Date.parse(t.at));
    instants.set(zone, starts);
  }
  const i = countAtOrBefore(starts, ms); // transitions[i - 1] started the state in force
  const s = i === 0 ? zone.initial : zone.transitions[i - 1];
  return {
    offset: s.offset,
    offset_minutes: s.offset_minutes,
    abbreviation: s.abbreviation,
    is_dst: s.is_dst,
    next_transition: zone.transitions[i] ?? null,
  };
}

/** How many of the ascending `starts` are <= ms (binary search). */
function countAtOrBefore(starts: number[], ms: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid] <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

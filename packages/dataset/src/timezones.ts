/**
 * IANA time zones (data/timezones/index.json and data/timezones/zones.json):
 * a zone's document, and the offset in force at an instant, from the zone's
 * initial state and its transitions.
 */
import { once, readJson } from './read-json.js';
import type { TimezonesIndex, TimezoneZone, ZoneState, ZoneTransition } from './schema-types.js';
import { buildTimeline, formatOffset, stateIndexAt, type ZoneTimeline } from './zone-timeline.js';

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

/** Every zone's document by canonical id (dist-data's timezones/zones/{id}.json files, in one file). */
const zones = once(() => new Map(Object.entries(readJson<Record<string, TimezoneZone>>('timezones/zones.json'))));

/** Each zone's timeline (lib/zone-timeline, as the API uses), built once per zone document. */
const timelines = new WeakMap<TimezoneZone, ZoneTimeline>();

/**
 * A zone by IANA id or alias (tzdata link), any case; the answer is the canonical zone.
 * @example getTimezone('US/Eastern')?.id // 'America/New_York'
 */
export function getTimezone(id: string): TimezoneZone | undefined {
  if (typeof id !== 'string' || id.length > 64) return undefined;
  const canonical = lookup().get(id.toLowerCase());
  return canonical === undefined ? undefined : zones().get(canonical);
}

/**
 * The offset, abbreviation and DST flag in force at an instant; undefined for
 * an unknown zone or an instant outside the dataset's window (each zone's `window`).
 * @example getOffset('America/New_York', Date.UTC(2026, 6, 1))?.offset_minutes // -240
 */
export function getOffset(id: string, at: Date | number): OffsetAt | undefined {
  const zone = getTimezone(id);
  const ms = at instanceof Date ? at.getTime() : at;
  if (zone === undefined || typeof ms !== 'number' || !Number.isFinite(ms)) return undefined;
  // Before the window the initial state may not have held; after it, rules may change.
  if (ms < Date.parse(zone.window.start) || ms >= Date.parse(zone.window.end)) return undefined;
  let timeline = timelines.get(zone);
  if (timeline === undefined) {
    timeline = buildTimeline(zone.initial, zone.transitions.map((t) => ({ at_ms: Date.parse(t.at), state: t })));
    timelines.set(zone, timeline);
  }
  const i = stateIndexAt(timeline, ms); // transitions[i] ends states[i]
  const s = timeline.states[i];
  return {
    offset: formatOffset(s.offset_minutes),
    offset_minutes: s.offset_minutes,
    abbreviation: s.abbreviation,
    is_dst: s.is_dst,
    next_transition: zone.transitions[i] ?? null,
  };
}

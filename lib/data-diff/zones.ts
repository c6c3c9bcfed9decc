/**
 * Changes of one time zone: the first instant its offset differs, and the
 * transitions added or removed inside the windows both sides cover.
 */
import type { TimezoneZone, ZoneState, ZoneTransition } from '../schema-types.js';
import type { OffsetDifference, TransitionSummary, ZoneChange } from './types.js';
import { fieldChanges } from './values.js';

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
export const ZONE_METADATA = ['tzdata_version', 'window'];
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

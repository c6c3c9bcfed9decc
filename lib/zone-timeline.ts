/**
 * What a zone's clock says at an instant: the state in force (offset,
 * abbreviation, DST flag, standard offset) and the next change, by binary
 * search over the zone's transitions. Pure.
 */

export interface ZoneState {
  offset_minutes: number;
  abbreviation: string;
  is_dst: boolean;
  /** Offset of the standard-time state this one belongs to. */
  standard_offset_minutes: number;
}

export interface ZoneTimeline {
  /** starts[i] = first instant (ms) of states[i]; starts[0] = -Infinity. */
  starts: number[];
  states: ZoneState[];
}

export interface RawState {
  offset_minutes: number;
  abbreviation: string;
  is_dst: boolean;
}

/**
 * The standard offset of a DST state is that of the standard state before it
 * (or after it, when the window opens in DST).
 */
export function buildTimeline(initial: RawState, transitions: { at_ms: number; state: RawState }[]): ZoneTimeline {
  const raw = [initial, ...transitions.map((t) => t.state)];
  const starts = [-Infinity, ...transitions.map((t) => t.at_ms)];
  const std: number[] = new Array(raw.length);
  let last: number | undefined;
  for (let i = 0; i < raw.length; i++) {
    if (!raw[i].is_dst) last = raw[i].offset_minutes;
    std[i] = last ?? NaN;
  }
  let next: number | undefined;
  for (let i = raw.length - 1; i >= 0; i--) {
    if (!raw[i].is_dst) next = raw[i].offset_minutes;
    if (Number.isNaN(std[i])) std[i] = next ?? raw[i].offset_minutes;
  }
  return { starts, states: raw.map((s, i) => ({ ...s, standard_offset_minutes: std[i] })) };
}

/** Index of the state in force at `ms`. */
export function stateIndexAt(tl: ZoneTimeline, ms: number): number {
  let lo = 0;
  let hi = tl.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (tl.starts[mid] <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** "+05:45" / "-03:30" / "+00:00" for an offset in minutes. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/**
 * The transitions that start in [fromMs, untilMs) as a slice [first, end) of
 * the zone's transition list (transition k starts state k + 1), and the state
 * in force at fromMs.
 */
export function transitionsBetween(tl: ZoneTimeline, fromMs: number, untilMs: number): { initial: number; first: number; end: number } {
  const initial = stateIndexAt(tl, fromMs);
  // States that start at or after fromMs are initial + 1 onward; transition k starts state k + 1.
  const first = tl.starts[initial] === fromMs && initial > 0 ? initial - 1 : initial;
  const end = untilMs <= fromMs ? first : stateIndexAt(tl, untilMs - 1);
  return { initial, first, end: Math.max(first, end) };
}

/** The UTC offset in minutes in force at `ms` (the state at the window's edge holds beyond it). */
export function offsetMinutesAt(tl: ZoneTimeline, ms: number): number {
  return tl.states[stateIndexAt(tl, ms)].offset_minutes;
}

/** The local calendar date (YYYY-MM-DD) at instant `ms`. */
export function localDateAt(tl: ZoneTimeline, ms: number): string {
  return new Date(ms + offsetMinutesAt(tl, ms) * 60_000).toISOString().slice(0, 10);
}

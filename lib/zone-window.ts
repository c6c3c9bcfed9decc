/**
 * A zone's UTC-offset history inside a window of instants: the state at the
 * window's start and every change before its end, from the TZif transition
 * table and, past its last entry, the POSIX TZ footer. Pure.
 */
import { civilFromDays } from './plain-date.js';
import { parsePosixTz, posixTransitions, type Transition } from './posix-tz.js';
import type { LocalTimeType, TzifData } from './tzif.js';

export interface ZoneWindow {
  initial: LocalTimeType;
  transitions: Transition[];
}

const yearOf = (seconds: number) => civilFromDays(Math.floor(seconds / 86400))[0];

const same = (a: LocalTimeType, b: LocalTimeType) => a.utoff === b.utoff && a.isdst === b.isdst && a.abbreviation === b.abbreviation;

/** Changes of state within [from, to) (seconds since the epoch). */
export function zoneWindow(tz: TzifData, from: number, to: number): ZoneWindow {
  const footer = tz.footer ? parsePosixTz(tz.footer) : undefined;
  const lastExplicit = tz.times.length ? tz.times[tz.times.length - 1] : -Infinity;
  const all: Transition[] = tz.times.map((at, i) => ({ at, type: tz.types[tz.typeIndices[i]] }));
  if (footer) {
    const firstYear = Math.max(yearOf(Math.max(lastExplicit, from)) - 1, -10_000);
    if (!footer.dst && lastExplicit < from) all.push({ at: lastExplicit === -Infinity ? from : lastExplicit + 1, type: footer.std });
    for (let y = firstYear; y <= yearOf(to); y++) {
      for (const t of posixTransitions(footer, y)) if (t.at > lastExplicit) all.push(t);
    }
  }
  // Stable: of transitions at the same instant the later one wins.
  all.sort((a, b) => a.at - b.at);
  let initial: LocalTimeType = footer && tz.times.length === 0 && !footer.dst ? footer.std : tz.types[0];
  const inside: Transition[] = [];
  for (let i = 0; i < all.length; i++) {
    const t = all[i];
    if (i + 1 < all.length && all[i + 1].at === t.at) continue;
    if (t.at <= from) initial = t.type;
    else if (t.at < to) inside.push(t);
  }
  const transitions: Transition[] = [];
  let current = initial;
  for (const t of inside) {
    if (same(current, t.type)) continue;
    transitions.push(t);
    current = t.type;
  }
  return { initial, transitions };
}

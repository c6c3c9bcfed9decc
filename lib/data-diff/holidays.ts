/**
 * Holiday changes of one location and year: pairs old and new holidays so a
 * moved or renamed holiday reads as one change, not a removal and an addition.
 */
import type { Holiday } from '../schema-types.js';
import type { HolidayChange } from './types.js';
import { byKey, fieldChanges } from './values.js';

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

/**
 * POSIX TZ strings as found in TZif footers ("EST5EDT,M3.2.0,M11.1.0",
 * "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"), with the RFC 8536 extensions
 * (hours from -167 to 167). Yields the transitions of any year. Pure.
 */
import { daysFromCivil, weekdayIndex } from './plain-date.js';
import type { LocalTimeType } from './tzif.js';

type DateRule = { kind: 'M'; month: number; week: number; day: number } | { kind: 'J'; day: number } | { kind: 'N'; day: number };

export interface PosixTz {
  std: LocalTimeType;
  dst?: LocalTimeType & { start: DateRule; startTime: number; end: DateRule; endTime: number };
}

/** A transition: from `at` (seconds since the epoch) the zone is in `type`. */
export interface Transition {
  at: number;
  type: LocalTimeType;
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}
  peek() {
    return this.s[this.i];
  }
  done() {
    return this.i >= this.s.length;
  }
  name(): string {
    if (this.peek() === '<') {
      const end = this.s.indexOf('>', this.i);
      if (end < 0) throw new Error(`bad TZ name in "${this.s}"`);
      const n = this.s.slice(this.i + 1, end);
      this.i = end + 1;
      return n;
    }
    const m = /^[A-Za-z]{3,}/.exec(this.s.slice(this.i));
    if (!m) throw new Error(`bad TZ name in "${this.s}"`);
    this.i += m[0].length;
    return m[0];
  }
  /** [+-]hh[:mm[:ss]] in seconds. */
  time(): number {
    const m = /^([+-]?)(\d{1,3})(?::(\d{1,2}))?(?::(\d{1,2}))?/.exec(this.s.slice(this.i));
    if (!m) throw new Error(`bad TZ time in "${this.s}"`);
    this.i += m[0].length;
    const secs = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
    return m[1] === '-' ? -secs : secs;
  }
  rule(): DateRule {
    const rest = this.s.slice(this.i);
    let m = /^M(\d{1,2})\.(\d)\.(\d)/.exec(rest);
    if (m) {
      this.i += m[0].length;
      return { kind: 'M', month: Number(m[1]), week: Number(m[2]), day: Number(m[3]) };
    }
    m = /^J(\d{1,3})/.exec(rest);
    if (m) {
      this.i += m[0].length;
      return { kind: 'J', day: Number(m[1]) };
    }
    m = /^(\d{1,3})/.exec(rest);
    if (m) {
      this.i += m[0].length;
      return { kind: 'N', day: Number(m[1]) };
    }
    throw new Error(`bad TZ rule in "${this.s}"`);
  }
}

export function parsePosixTz(text: string): PosixTz {
  const r = new Reader(text);
  const stdName = r.name();
  const std: LocalTimeType = { abbreviation: stdName, utoff: -r.time(), isdst: false };
  if (r.done()) return { std };
  const dstName = r.name();
  const dstOff = r.done() || r.peek() === ',' ? std.utoff + 3600 : -r.time();
  if (r.peek() !== ',') throw new Error(`TZ string without rules: "${text}"`);
  r.i++;
  const start = r.rule();
  let startTime = 7200;
  if (r.peek() === '/') {
    r.i++;
    startTime = r.time();
  }
  if (r.peek() !== ',') throw new Error(`bad TZ string "${text}"`);
  r.i++;
  const end = r.rule();
  let endTime = 7200;
  if (r.peek() === '/') {
    r.i++;
    endTime = r.time();
  }
  if (!r.done()) throw new Error(`trailing text in TZ string "${text}"`);
  return { std, dst: { abbreviation: dstName, utoff: dstOff, isdst: true, start, startTime, end, endTime } };
}

function isLeap(y: number) {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** Day number of a rule's date in `year`. */
function ruleDay(rule: DateRule, year: number): number {
  const jan1 = daysFromCivil(year, 1, 1);
  if (rule.kind === 'J') return jan1 + rule.day - 1 + (isLeap(year) && rule.day >= 60 ? 1 : 0); // J never counts 29 February
  if (rule.kind === 'N') return jan1 + rule.day; // zero-based, counts 29 February
  const first = daysFromCivil(year, rule.month, 1);
  const firstSunday0 = (weekdayIndex(first) + 1) % 7; // 0 = Sunday
  let day = first + ((rule.day - firstSunday0 + 7) % 7) + (rule.week - 1) * 7;
  const nextMonth = rule.month === 12 ? daysFromCivil(year + 1, 1, 1) : daysFromCivil(year, rule.month + 1, 1);
  while (day >= nextMonth) day -= 7; // week 5 = the last such weekday
  return day;
}

/** Transitions a POSIX TZ rule makes in `year`, ascending (none without DST). */
export function posixTransitions(tz: PosixTz, year: number): Transition[] {
  if (!tz.dst) return [];
  const { dst, std } = tz;
  // The start is given in local standard time, the end in local daylight time.
  const start = ruleDay(dst.start, year) * 86400 + dst.startTime - std.utoff;
  const end = ruleDay(dst.end, year) * 86400 + dst.endTime - dst.utoff;
  const dstType: LocalTimeType = { abbreviation: dst.abbreviation, utoff: dst.utoff, isdst: true };
  return [
    { at: start, type: dstType },
    { at: end, type: std },
  ].sort((a, b) => a.at - b.at);
}

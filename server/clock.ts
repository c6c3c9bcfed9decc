/**
 * The time, as routes may learn it, and how long their answers hold.
 *
 * A route learns the time only from the Clock it is given (test/clock-reads.test.ts keeps Date.now() and
 * new Date() out of server/routes/ and lib/). Clock.now(c) notes the read on the request's context, and an
 * answer whose route read the time must say how long it holds (answer()'s `holds`): for good is the
 * default, and answer() refuses it for a route that read the time (an internal error, which every test of
 * that route sees), so no answer that depends on the time can be kept for good, by the fast path of
 * server/main.ts or by a shared cache.
 */
import type { Context } from 'hono';

/**
 * How long an answer holds as far as the time goes:
 * - `for-good`: it depends on the request and the dataset alone (the default; a route that read the time
 *   may not say it);
 * - `today`: it depends on today's date somewhere (a default date or year). Every zone's offset is a whole
 *   number of minutes, so no date anywhere changes before the next whole minute (UTC) after the read: it
 *   holds until then;
 * - `{ until }`: it holds until that instant (epoch ms; Infinity when nothing ahead changes it), such as
 *   a zone's next transition.
 */
export type Holds = 'for-good' | 'today' | { until: number };

/** The context variable under which Clock.now() notes its first read of a request. */
const TIME_READ = 'refdata.timeRead';
const MINUTE_MS = 60_000;

export class Clock {
  /** @param read the current instant; tests freeze it. */
  constructor(private readonly read: () => Date = () => new Date()) {}

  /** The current instant in epoch ms, noted on the request: its answer must then say how long it holds. */
  now(c: Context): number {
    const ms = this.read().getTime();
    if (c.get(TIME_READ as never) === undefined) c.set(TIME_READ as never, ms as never);
    return ms;
  }
}

/** The instant a request's route first read the time, or undefined when it did not. */
export function timeReadOf(c: Context): number | undefined {
  return c.get(TIME_READ as never) as number | undefined;
}

/**
 * Until when (epoch ms) an answer holds, given the route's declaration and its first read of the time:
 * Infinity for an answer that did not read it. Throws for a route that read the time and said `for-good`.
 */
export function holdsUntil(holds: Holds, readAt: number | undefined, path: string): number {
  if (readAt === undefined) return holds === 'for-good' || holds === 'today' ? Infinity : holds.until;
  if (holds === 'for-good') throw new Error(`the route of ${path.slice(0, 100)} read the time without saying how long its answer holds`);
  if (holds === 'today') return (Math.floor(readAt / MINUTE_MS) + 1) * MINUTE_MS;
  return holds.until;
}

/**
 * A process-wide cache for date-chinese's lunisolar computations.
 *
 * date-holidays computes every Chinese, Korean and Vietnamese calendar date
 * (Lunar New Year, Mid-Autumn, Tết, Chuseok …) through date-chinese, which
 * finds new moons and solar terms with VSOP87 planet positions: over 90% of
 * the ingest's time for 1990-2099. date-chinese already caches those results
 * (solar longitudes by JDE, December solstices and New Year by Gregorian year),
 * but per calendar object, and date-holidays makes a new object for each rule
 * and year, so the cache is always cold. Here every object of a calendar class
 * shares one cache: the cached values are pure functions of their key and of
 * the class (Korean and Vietnamese calendars have their own meridian), so the
 * answers are the same, computed once. A test builds both ways and compares.
 */
import { CalendarChinese, CalendarKorean, CalendarVietnamese } from 'date-chinese';

interface LunarCache {
  lon: Record<number, number>;
  sue: Record<number, number>;
  ny: Record<number, number>;
}

const caches = new Map<unknown, LunarCache>();
let installed = false;

/** Makes every date-chinese calendar object of one class share its cache. Idempotent. */
export function shareLunarCaches(): void {
  if (installed) return;
  installed = true;
  // The constructor assigns `this._cache = {…}`; with an accessor on the prototype that
  // assignment reaches the setter (ignored) instead of creating a per-object cache.
  for (const cls of [CalendarChinese, CalendarKorean, CalendarVietnamese]) {
    Object.defineProperty(cls.prototype, '_cache', {
      configurable: true,
      get(this: object) {
        let cache = caches.get(this.constructor);
        if (!cache) caches.set(this.constructor, (cache = { lon: {}, sue: {}, ny: {} }));
        return cache;
      },
      set() {},
    });
  }
}

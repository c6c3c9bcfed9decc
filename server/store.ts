/**
 * The lookup layer's view of dist-data: the location list at start, and each
 * location's calendar (lib/location-calendar.ts) built lazily on first use
 * from its files, so memory grows only with the locations actually asked for.
 * The I/O lives here; the calendar model and the answers are in lib/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocationCalendar } from '../lib/location-calendar.js';
import { parseDate } from '../lib/plain-date.js';
import type { AstronomyPlaces, BusinessDaysLocation, BusinessDaysLocations, BusinessDaysYear, Manifest } from '../lib/schema-types.js';

export { DAY_TYPES, isRelevant, LocationCalendar, type DayType } from '../lib/location-calendar.js';

export class DatasetStore {
  readonly list: BusinessDaysLocations;
  /** The bytes of business-days/index.json: the list endpoint answers them as they are. */
  readonly listBytes: Uint8Array<ArrayBuffer>;
  readonly manifest: Manifest;
  readonly firstDay: number;
  readonly lastDay: number;
  private readonly known: Map<string, BusinessDaysLocations['locations'][number]>;
  private readonly noData: Map<string, string>;
  private readonly loaded = new Map<string, LocationCalendar>();
  /** Bytes of year files asked for (bounded: 628 locations x 46 years would be ~90 MB). */
  private readonly yearFiles = new Map<string, Uint8Array<ArrayBuffer>>();

  constructor(readonly root: string) {
    this.manifest = this.readJson('manifest.json');
    this.listBytes = this.readBytes('business-days/index.json');
    this.list = JSON.parse(new TextDecoder().decode(this.listBytes)) as BusinessDaysLocations;
    this.firstDay = parseDate(this.list.range.start)!;
    this.lastDay = parseDate(this.list.range.end)!;
    this.known = new Map(this.list.locations.map((l) => [l.location, l]));
    this.noData = new Map(this.list.no_holiday_data.map((l) => [l.location, l.name]));
  }

  private readJson<T>(path: string): T {
    return JSON.parse(readFileSync(join(this.root, 'v1', path), 'utf8')) as T;
  }

  private readBytes(path: string): Uint8Array<ArrayBuffer> {
    return new Uint8Array(readFileSync(join(this.root, 'v1', path)));
  }

  /**
   * The bytes of business-days/{code}/{year}.json, answered as they are so the
   * API and the static file are byte-identical. The code must have passed `has`
   * and the year must be one of the location's years: no path from raw input.
   */
  yearBytes(code: string, year: number): Uint8Array<ArrayBuffer> {
    const key = `${code}/${year}`;
    let bytes = this.yearFiles.get(key);
    if (!bytes) {
      if (!this.location(code).meta.years.includes(year)) throw new Error(`no year ${year} for ${code}`);
      bytes = this.readBytes(`business-days/${key}.json`);
      if (this.yearFiles.size >= 4096) this.yearFiles.clear();
      this.yearFiles.set(key, bytes);
    }
    return bytes;
  }

  has(code: string): boolean {
    return this.known.has(code);
  }

  /** Name of a country that exists but has no holiday data, if `code` is one. */
  withoutData(code: string): string | undefined {
    return this.noData.get(code);
  }

  /** Loads a known location; the code must have passed `has` (paths are never built from raw input). */
  location(code: string): LocationCalendar {
    let cal = this.loaded.get(code);
    if (!cal) {
      if (!this.known.has(code)) throw new Error(`unknown location ${code}`);
      const meta = this.readJson<BusinessDaysLocation>(`business-days/${code}/index.json`);
      const years = meta.years.map((y) => this.readJson<BusinessDaysYear>(`business-days/${code}/${y}.json`));
      cal = new LocationCalendar(meta, years);
      this.loaded.set(code, cal);
    }
    return cal;
  }

  /** The place (capital) and time zone each country code stands for in the astronomy area. */
  astronomyPlaces(): AstronomyPlaces['places'] {
    return this.readJson<AstronomyPlaces>('astronomy/places.json').places;
  }

  /** The English name of a known location. */
  nameOf(code: string): string {
    return this.known.get(code)!.name;
  }

  timezoneOf(code: string): string {
    return this.known.get(code)!.timezone;
  }
}

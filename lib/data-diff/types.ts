/**
 * The findings a data diff reports, as plain JSON (`--json` prints them as is).
 */
import type { BusinessDaysLocation, Manifest } from '../schema-types.js';

export interface FileChanges {
  added: string[];
  removed: string[];
  changed: string[];
  unchanged: number;
}

/** One field that differs; `field` is a dotted path (power.voltage). */
export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
}

export interface HolidayChange {
  location: string;
  year: number;
  kind: 'added' | 'removed' | 'moved' | 'changed';
  /** The holiday's name on the old side (the new side for an added one). */
  name: string;
  /** Old date for removed, new date otherwise. */
  date: string;
  /** For moved: the date it left. */
  old_date?: string;
  /** Fields other than the date that differ (changed; moved with extra changes). */
  fields: FieldChange[];
  /** The old or the new date is before `today`. */
  past: boolean;
}

/** A whole year file appeared or disappeared for a location that exists on both sides. */
export interface YearChange {
  location: string;
  year: number;
  kind: 'added' | 'removed';
  holidays: number;
  /** Holidays of that year dated before `today`. */
  past_holidays: number;
}

export interface LocationRef {
  location: string;
  name: string;
}

export interface LocationChange {
  location: string;
  /** First date whose workweek differs (null: from the start of the data); absent when workweeks are equal. */
  workweek_from?: string | null;
  old_workweeks?: BusinessDaysLocation['workweeks'];
  new_workweeks?: BusinessDaysLocation['workweeks'];
  fields: FieldChange[];
}

export interface OffsetDifference {
  /** First instant (UTC) where the offset in force differs. */
  at: string;
  old_offset_minutes: number;
  new_offset_minutes: number;
}

export interface TransitionSummary {
  count: number;
  first: string | null;
  last: string | null;
}

export interface ZoneChange {
  zone: string;
  offset?: OffsetDifference;
  standard_offset?: { old: number; new: number };
  transitions_added: TransitionSummary;
  transitions_removed: TransitionSummary;
  /** name, country, comment, aliases. */
  fields: FieldChange[];
}

export interface AliasChanges {
  added: { alias: string; target: string }[];
  removed: { alias: string; target: string }[];
  retargeted: { alias: string; old: string; new: string }[];
}

export interface RecordChange {
  code: string;
  fields: FieldChange[];
}

export interface Warning {
  /** Location code or zone id. */
  subject: string;
  /** The earliest past date or instant the change touches. */
  date: string;
  /** What changed, without its date: "holiday removed: Christmas Eve". */
  change: string;
  /** Its date as shown: "2025-12-24", "2025-12-28 → 2025-12-29", "from 2024-03-31T01:00:00Z". */
  when: string;
}

/** A location-year whose basis changed (rules → official when a government publishes its schedule). */
export interface BasisChange {
  location: string;
  year: number;
  old: 'official' | 'corroborated' | 'rules';
  new: 'official' | 'corroborated' | 'rules';
}

/** A working day outside the workweek added or removed. */
export interface WorkingDayChange {
  location: string;
  date: string;
  kind: 'added' | 'removed';
  name: string;
  past: boolean;
}

export interface DataDiff {
  today: string;
  old_version: string;
  new_version: string;
  sources: { name: string; old: string | null; new: string | null }[];
  files: { added: number; removed: number; changed: number; unchanged: number };
  /** Years whose basis changed: listed first, they change many answers at once. */
  basis: BasisChange[];
  warnings: Warning[];
  working_days: WorkingDayChange[];
  locations: { added: LocationRef[]; removed: LocationRef[]; changed: LocationChange[] };
  holidays: HolidayChange[];
  years: YearChange[];
  zones: {
    added: string[];
    removed: string[];
    changed: ZoneChange[];
    aliases: AliasChanges;
    /** Fields every zone document carries (tzdata_version, window), tallied per old → new. */
    metadata: { field: string; old: unknown; new: unknown; zones: number }[];
  };
  travel: { added: string[]; removed: string[]; changed: RecordChange[]; regions: AliasChanges };
  countries: { added: string[]; removed: string[]; changed: RecordChange[] };
  /** Changed, added or removed files no section above reads (listings, climate, astronomy, attribution). */
  other_files: string[];
}

/** Parsed files of one side: its manifest and the files filesToLoad() asked for. */
export interface Snapshot {
  manifest: Manifest;
  files: ReadonlyMap<string, unknown>;
}

/**
 * The data changelog: what changed between two builds of dist-data/v1, in
 * terms a reviewer checks (holidays added, removed or moved; time zone
 * offsets; travel facts), and which of those changes touch the past.
 * Pure: the caller reads the files; `today` is an input, never the clock.
 *
 * Flow: checkManifest() confirms each side holds exactly the files its
 * manifest lists (the caller hashes them); compareManifests() finds the files
 * whose sha256 differs, so only those are parsed (a dataset has ~30,000
 * files); filesToLoad() says which of them to parse; diffDatasets() turns
 * them into findings; renderMarkdown() writes the pull-request body.
 */
export type {
  AliasChanges,
  DataDiff,
  FieldChange,
  FileChanges,
  HolidayChange,
  LocationChange,
  LocationRef,
  OffsetDifference,
  RecordChange,
  Snapshot,
  TransitionSummary,
  Warning,
  YearChange,
  ZoneChange,
} from './types.js';
export { compareManifests, filesToLoad, isDetailedPath } from './files.js';
export { deepEqual, fieldChanges } from './values.js';
export { diffHolidays } from './holidays.js';
export { diffLocation, firstWorkweekDifference } from './locations.js';
export { diffZone, firstOffsetDifference } from './zones.js';
export { diffDatasets, hasChanges } from './dataset.js';
export { formatField, formatValue, holidayChangeText } from './text.js';
export { LIMITS, renderMarkdown } from './markdown.js';
export { checkManifest, describeProblem, renderManifestProblems, type FileFacts, type ManifestProblem } from './verify.js';

/**
 * Which files differ between two manifests, and which of those the diff must
 * parse: a dataset has ~30,000 files, so only changed ones are read.
 */
import type { Manifest } from '../schema-types.js';
import type { FileChanges } from './types.js';

export const YEAR_FILE = /^business-days\/([^/]+)\/(\d{4})\.json$/;
export const LOCATION_FILE = /^business-days\/([^/]+)\/index\.json$/;
export const ZONE_FILE = /^timezones\/zones\/(.+)\.json$/;
export const TRAVEL_FILE = /^travel\/([^/]+)\.json$/;
export const COUNTRY_FILE = /^countries\/([^/]+)\.json$/;
export const LOCATIONS_INDEX = 'business-days/index.json';
export const ZONES_INDEX = 'timezones/index.json';
export const TRAVEL_INDEX = 'travel/index.json';

/** Files the diff reads field by field; every other file is only listed. */
export function isDetailedPath(path: string): boolean {
  if (path === LOCATIONS_INDEX || path === ZONES_INDEX || path === TRAVEL_INDEX) return true;
  if (YEAR_FILE.test(path) || LOCATION_FILE.test(path) || ZONE_FILE.test(path)) return true;
  // countries/index.json and the pages/ listings repeat the per-country documents.
  return (TRAVEL_FILE.test(path) || COUNTRY_FILE.test(path)) && !path.endsWith('/index.json');
}

/** Files whose sha256 differs or that exist on one side only. The manifest lists every file but itself. */
export function compareManifests(oldManifest: Manifest, newManifest: Manifest): FileChanges {
  const changes: FileChanges = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const [path, file] of Object.entries(oldManifest.files)) {
    const other = newManifest.files[path];
    if (!other) changes.removed.push(path);
    else if (other.sha256 !== file.sha256) changes.changed.push(path);
    else changes.unchanged++;
  }
  for (const path of Object.keys(newManifest.files)) if (!oldManifest.files[path]) changes.added.push(path);
  for (const list of [changes.added, changes.removed, changes.changed]) list.sort();
  return changes;
}

/** The paths to parse on each side. */
export function filesToLoad(changes: FileChanges): { old: string[]; new: string[] } {
  return {
    old: [...changes.changed, ...changes.removed].filter(isDetailedPath).sort(),
    new: [...changes.changed, ...changes.added].filter(isDetailedPath).sort(),
  };
}

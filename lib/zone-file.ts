/**
 * Where a zone's document lives in the dataset. Pure.
 */

/**
 * `timezones/zones/{id}.json` under v1/, the id's slashes as folders and each
 * `+` spelled `_plus_` (Etc/GMT+5 -> timezones/zones/Etc/GMT_plus_5.json):
 * Amazon S3 and hosts like it read a literal `+` in a path as a space, and
 * every other published path is plain [A-Za-z0-9_-]. No IANA id contains
 * `_plus_`, so the spelling is reversible.
 */
export function zoneDocumentPath(id: string): string {
  return `timezones/zones/${id.replaceAll('+', '_plus_')}.json`;
}

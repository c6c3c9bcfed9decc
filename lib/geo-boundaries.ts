/**
 * The time zone polygons behind GET /v1/timezones/lookup. geo-tz ships
 * timezone-boundary-builder's data without naming its release anywhere in the
 * package, so the release is recorded here against the geo-tz version that
 * carries it; the build fails when the installed geo-tz differs
 * (pipeline/stages/ingest-timezones.ts), so an upgrade cannot keep a stale
 * release in the manifest and attribution.
 */

export const BOUNDARIES = {
  /** geo-tz 8.1.9 = "Update to 2026d data": https://github.com/evansiroky/node-geo-tz/pull/211 */
  package: 'geo-tz',
  package_version: '8.1.9',
  source: 'timezone-boundary-builder',
  release: '2026d',
  url: 'https://github.com/evansiroky/timezone-boundary-builder/releases/tag/2026d',
  /** The boundaries are derived from OpenStreetMap: https://github.com/evansiroky/timezone-boundary-builder#licenses */
  license: 'ODbL-1.0',
  attribution: 'Time zone boundaries: timezone-boundary-builder 2026d by Evan Siroky, from OpenStreetMap data © OpenStreetMap contributors, Open Database License 1.0.',
} as const;

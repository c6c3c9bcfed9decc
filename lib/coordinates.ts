/**
 * Coordinates in degrees (WGS 84) as a query string gives them, for the time-zone lookup and astronomy. Pure.
 * Decimal numbers only: no exponents, hex or Infinity. A leading space is read as `+`: a `+` sent unencoded in
 * a query string arrives as a space (application/x-www-form-urlencoded), as `at` reads it (lib/rfc3339.ts).
 */
const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** The coordinate, within ±limit, or undefined when the text is not one; -0 is 0. */
export function parseCoordinate(raw: string, limit: number): number | undefined {
  const text = raw.startsWith(' ') ? `+${raw.slice(1)}` : raw;
  if (!NUMBER_RE.test(text)) return undefined;
  const value = Number(text);
  if (!(Math.abs(value) <= limit)) return undefined;
  return value === 0 ? 0 : value;
}

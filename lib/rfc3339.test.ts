import { describe, expect, it } from 'vitest';
import { formatInstant, parseInstant } from './rfc3339.js';

// RFC 3339 section 5.6 (https://www.rfc-editor.org/rfc/rfc3339#section-5.6) and its examples in 5.8.
describe('parseInstant', () => {
  it('reads the examples of RFC 3339 section 5.8', () => {
    expect(parseInstant('1985-04-12T23:20:50.52Z')).toBe(Date.UTC(1985, 3, 12, 23, 20, 50, 520));
    expect(parseInstant('1996-12-19T16:39:57-08:00')).toBe(Date.UTC(1996, 11, 20, 0, 39, 57));
    expect(parseInstant('1937-01-01T12:00:27.87+00:20')).toBe(Date.UTC(1937, 0, 1, 11, 40, 27, 870));
  });

  it('takes lower-case t and z, fractions of any length, -00:00', () => {
    expect(parseInstant('2026-07-01t12:00:00z')).toBe(Date.UTC(2026, 6, 1, 12));
    expect(parseInstant('2026-07-01T12:00:00.123456789Z')).toBe(Date.UTC(2026, 6, 1, 12, 0, 0, 123));
    // More than nine digits too (RFC 3339 sets no limit); the milliseconds are cut, never rounded into the next second.
    expect(parseInstant('2026-07-01T12:00:00.123456789012Z')).toBe(Date.UTC(2026, 6, 1, 12, 0, 0, 123));
    expect(parseInstant('2026-12-31T23:59:59.99999999999999999999Z')).toBe(Date.UTC(2026, 11, 31, 23, 59, 59, 999));
    expect(parseInstant('2026-07-01T12:00:00.5Z')).toBe(Date.UTC(2026, 6, 1, 12, 0, 0, 500));
    expect(parseInstant('2026-07-01T12:00:00-00:00')).toBe(Date.UTC(2026, 6, 1, 12));
  });

  it('reads a space before the offset as + (a + sent unencoded in a query string)', () => {
    expect(parseInstant('2026-07-01T14:00:00 02:00')).toBe(Date.UTC(2026, 6, 1, 12));
    expect(parseInstant('2026-07-01T14:00:00+02:00')).toBe(Date.UTC(2026, 6, 1, 12));
  });

  it('handles years below 100 and far ones without Date.parse surprises', () => {
    expect(parseInstant('0099-01-01T00:00:00Z')).toBe(-59042995200000); // Date.UTC(99, 0, 1) would be 1999
    expect(parseInstant('0099-01-01T00:00:00Z')).toBe(Date.parse('0099-01-01T00:00:00Z'));
    expect(parseInstant('2099-12-31T23:59:59Z')).toBe(Date.UTC(2099, 11, 31, 23, 59, 59));
  });

  for (const bad of ['2026-07-01', '2026-07-01T12:00:00', '2026-07-01T12:00Z', '2026-07-01 12:00:00Z', '2026-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-07-01T24:00:00Z',
    '2026-06-30T23:59:60Z', '2026-07-01T12:00:00+24:00', '2026-07-01T12:00:00+0200', '+2026-07-01T12:00:00Z', ' 2026-07-01T12:00:00Z', '2026-07-01T12:00:00Z ', 'now', '', '1782907200']) {
    it(`rejects "${bad}"`, () => expect(parseInstant(bad)).toBeUndefined());
  }
  it('takes 29 February in a leap year only', () => {
    expect(parseInstant('2028-02-29T00:00:00Z')).toBe(Date.UTC(2028, 1, 29));
    expect(parseInstant('2100-02-29T00:00:00Z')).toBeUndefined();
  });
});

describe('formatInstant', () => {
  it('writes UTC to the second', () => {
    expect(formatInstant(Date.UTC(2026, 6, 1, 12, 0, 0, 999))).toBe('2026-07-01T12:00:00Z');
    expect(formatInstant(0)).toBe('1970-01-01T00:00:00Z');
    expect(formatInstant(Date.UTC(2099, 11, 31, 23, 59, 59))).toBe('2099-12-31T23:59:59Z');
    expect(formatInstant(-1)).toBe('1969-12-31T23:59:59Z');
  });
});

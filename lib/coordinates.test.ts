import { describe, expect, it } from 'vitest';
import { parseCoordinate } from './coordinates.js';

describe('parseCoordinate', () => {
  it('takes decimal degrees within the limit, signed or not, and a space for an unencoded +', () => {
    expect(parseCoordinate('10', 90)).toBe(10);
    expect(parseCoordinate('+10', 90)).toBe(10);
    expect(parseCoordinate(' 10', 90)).toBe(10); // latitude=+10 sent unencoded
    expect(parseCoordinate('-33.8688', 90)).toBe(-33.8688);
    expect(parseCoordinate('.5', 90)).toBe(0.5);
    expect(parseCoordinate('90', 90)).toBe(90);
    expect(parseCoordinate('-180', 180)).toBe(-180);
    expect(Object.is(parseCoordinate('-0', 90), 0)).toBe(true);
  });
  it('refuses what is not a decimal number within the limit', () => {
    for (const bad of ['', ' ', '90.0001', '-91', '1e1', '0x10', 'Infinity', 'NaN', '10 ', '  10', '+-1', '1,5']) expect(parseCoordinate(bad, 90), bad).toBeUndefined();
  });
});

/**
 * Plug compatibility. Country facts below are typed in from IEC World Plugs
 * (https://www.iec.ch/world-plugs) and the national pages cited in
 * test/golden/travel.json, not taken from our dataset.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { plugFitsSocket, powerCompatibility, VOLTAGE_TOLERANCE, voltageCompatible } from './plugs.js';

const US = { plugs: ['A', 'B'], voltage: 120, frequency: 60 };
const GB = { plugs: ['G'], voltage: 230, frequency: 50 };
const IE = { plugs: ['G'], voltage: 230, frequency: 50 };
const DE = { plugs: ['C', 'F'], voltage: 230, frequency: 50 };
const FR = { plugs: ['C', 'E'], voltage: 230, frequency: 50 };
const JP = { plugs: ['A', 'B'], voltage: 100, frequency: 50 };
const AU = { plugs: ['I'], voltage: 230, frequency: 50 };
const NZ = { plugs: ['I'], voltage: 230, frequency: 50 };
const CH = { plugs: ['C', 'J'], voltage: 230, frequency: 50 };
const IT = { plugs: ['C', 'F', 'L'], voltage: 230, frequency: 50 };
const BR = { plugs: ['C', 'N'], voltage: 127, frequency: 60 };
const IN = { plugs: ['C', 'D', 'M'], voltage: 230, frequency: 50 };

describe('plugFitsSocket', () => {
  it('a plug always fits its own socket', () => {
    for (const l of 'ABCDEFGHIJKLMNO') expect(plugFitsSocket(l, l)).toBe(true);
  });
  it('A fits B, not the other way round', () => {
    expect(plugFitsSocket('A', 'B')).toBe(true);
    expect(plugFitsSocket('B', 'A')).toBe(false);
  });
  it('the Europlug C fits E F H J K L N, and not A B D G I M', () => {
    for (const s of 'EFHJKLN') expect(plugFitsSocket('C', s), s).toBe(true);
    for (const s of 'ABDGIM') expect(plugFitsSocket('C', s), s).toBe(false);
  });
  it('E/F hybrid plugs (CEE 7/7) fit both E and F sockets, but not C, J, K, L', () => {
    expect(plugFitsSocket('E', 'F')).toBe(true);
    expect(plugFitsSocket('F', 'E')).toBe(true);
    for (const s of 'CJKL') expect(plugFitsSocket('F', s), s).toBe(false);
  });
  it('no other socket takes a C socket plug: sockets of type C take only C plugs', () => {
    for (const p of 'ABDEFGHIJKLMN') expect(plugFitsSocket(p, 'C'), p).toBe(false);
  });
  it('is case-insensitive', () => {
    expect(plugFitsSocket('c', 'f')).toBe(true);
  });
});

describe('voltageCompatible (±10 % of the origin)', () => {
  it('documents the constant', () => expect(VOLTAGE_TOLERANCE).toBe(0.1));
  it('220, 230 and 240 V are mutually compatible', () => {
    for (const a of [220, 230, 240]) for (const b of [220, 230, 240]) expect(voltageCompatible(a, b), `${a}->${b}`).toBe(true);
  });
  it('100–127 V and 220–240 V never mix', () => {
    for (const a of [100, 110, 115, 120, 127]) {
      for (const b of [220, 230, 240]) {
        expect(voltageCompatible(a, b)).toBe(false);
        expect(voltageCompatible(b, a)).toBe(false);
      }
    }
  });
  it('120 -> 100 V is −16.7 %: not compatible; 110 -> 120 V is +9.1 %: compatible', () => {
    expect(voltageCompatible(120, 100)).toBe(false);
    expect(voltageCompatible(110, 120)).toBe(true);
  });
  it('is reflexive and agrees with the percentage inside one family', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 260 }), fc.integer({ min: 200, max: 260 }), (a, b) => {
        expect(voltageCompatible(a, a)).toBe(true);
        expect(voltageCompatible(a, b)).toBe(Math.abs(b - a) / a <= 0.1);
      }),
    );
  });
});

describe('powerCompatibility: the cases of the issue', () => {
  it('US -> GB: adapter needed, voltage not compatible', () => {
    expect(powerCompatibility(US, GB)).toEqual({ adapter_needed: true, shared_plugs: [], voltage_compatible: false });
  });
  it('GB -> IE: no adapter, same plug', () => {
    expect(powerCompatibility(GB, IE)).toEqual({ adapter_needed: false, shared_plugs: ['G'], voltage_compatible: true });
  });
  it('DE -> FR: no adapter (C fits E; the E/F hybrid fits E)', () => {
    expect(powerCompatibility(DE, FR)).toEqual({ adapter_needed: false, shared_plugs: ['C'], voltage_compatible: true });
    // Even a German device with only its Schuko/hybrid plug fits the French socket.
    expect(powerCompatibility({ ...DE, plugs: ['F'] }, FR).adapter_needed).toBe(false);
  });
  it('US -> JP: A and B shared, no adapter; 100 V is −16.7 % of 120 V, so not voltage-compatible', () => {
    expect(powerCompatibility(US, JP)).toEqual({ adapter_needed: false, shared_plugs: ['A', 'B'], voltage_compatible: false });
  });
  it('AU -> NZ: no adapter, compatible', () => {
    expect(powerCompatibility(AU, NZ)).toEqual({ adapter_needed: false, shared_plugs: ['I'], voltage_compatible: true });
  });
});

describe('powerCompatibility: more real pairs', () => {
  it('DE -> CH, IT, BR: the Europlug fits J, L and N, so no adapter although the letters differ', () => {
    expect(powerCompatibility({ ...DE, plugs: ['C'] }, CH).adapter_needed).toBe(false);
    expect(powerCompatibility({ ...DE, plugs: ['F'] }, CH).adapter_needed).toBe(true);
    expect(powerCompatibility(DE, IT).shared_plugs).toEqual(['C', 'F']);
    expect(powerCompatibility({ ...DE, plugs: ['C'] }, { ...BR, plugs: ['N'] }).adapter_needed).toBe(false);
  });
  it('GB -> IN: adapter needed (G does not fit C, D or M)', () => {
    expect(powerCompatibility(GB, IN)).toEqual({ adapter_needed: true, shared_plugs: [], voltage_compatible: true });
  });
  it('US -> BR (country main 127 V): +5.8 %, compatible; an adapter is needed (A/B do not fit C/N)', () => {
    expect(powerCompatibility(US, BR)).toEqual({ adapter_needed: true, shared_plugs: [], voltage_compatible: true });
  });
  it('shared_plugs is sorted and free of duplicates whatever the input order', () => {
    expect(powerCompatibility({ ...IT, plugs: ['L', 'F', 'C', 'C'] }, { ...IT, plugs: ['F', 'L', 'C'] }).shared_plugs).toEqual(['C', 'F', 'L']);
  });
  it('an origin without plug facts needs an adapter everywhere', () => {
    expect(powerCompatibility({ plugs: [], voltage: 230, frequency: 50 }, GB).adapter_needed).toBe(true);
  });
});

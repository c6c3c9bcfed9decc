/**
 * Physical compatibility of IEC plug types (letters A–O of IEC World Plugs)
 * and the voltage question a traveller asks. Pure: no I/O, no clock.
 *
 * Letters name socket types in a country's list and plug types on a device.
 * Which plug enters which socket follows the IEC World Plugs type pages
 * (https://www.iec.ch/world-plugs, one page per letter) and the standard
 * sheets they cite in IEC/TR 60083 ("Plugs and socket-outlets for domestic and
 * similar general use standardized in member countries of IEC").
 */

/** Plug type -> the socket types it enters safely, besides its own letter. */
const EXTRA_SOCKETS: Readonly<Record<string, readonly string[]>> = {
  // Type A (NEMA 1-15, two flat pins): a type B (NEMA 5-15) socket has the
  // same two slots plus the earth hole, so it takes A plugs.
  // IEC World Plugs, type B page (type A plugs also fit type B sockets).
  A: ['B'],
  // Type C (Europlug, IEC 60884-2-1 / EN 50075, 4.0 mm pins, 2.5 A): made to
  // enter every round-pin socket of the 4.0/4.8 mm family. IEC World Plugs
  // lists the Europlug as accepted by sockets E, F, H (Israel, SI 32 since
  // 1989), J (Switzerland, SN 441011), K (Denmark, DS 60884-2-D1),
  // L (Italy, CEI 23-50) and N (Brazil, NBR 14136 / IEC 60906-1).
  C: ['E', 'F', 'H', 'J', 'K', 'L', 'N'],
  // Types E and F: the plug sold with appliances in both markets is the
  // hybrid CEE 7/7: side earth clips for the F (Schuko, CEE 7/3) socket and a
  // hole for the earth pin of the E (CEE 7/5) socket, so it enters both
  // (IEC World Plugs, type E and type F pages, on the CEE 7/7 plug made to
  // bridge the two). A pure CEE 7/4 (F-only) plug is blocked by the E
  // socket's pin; we model the hybrid, which is what "E" or "F" means for a
  // traveller's device today. Known simplification, documented in the README.
  E: ['F'],
  F: ['E'],
};

/** True when a plug of type `plug` enters a socket of type `socket` (both IEC letters). */
export function plugFitsSocket(plug: string, socket: string): boolean {
  const p = plug.toUpperCase();
  const s = socket.toUpperCase();
  return p === s || (EXTRA_SOCKETS[p]?.includes(s) ?? false);
}

/**
 * Voltage tolerance: the destination nominal voltage must lie within ±10 % of
 * the origin's. ±10 % is the supply-voltage tolerance of IEC 60038 (230 V
 * ±10 % at the supply terminals), the band appliances are designed to accept.
 * Relative to the origin, because the device was rated for the origin's
 * supply. So 220/230/240 V are mutually compatible (240 vs 220
 * is +9.1 %), 110/120 V are (+9.1 %), and 120 -> 100 V is not (−16.7 %).
 */
export const VOLTAGE_TOLERANCE = 0.1;

/**
 * The two families of mains voltage in the world: 100–127 V and 220–240 V.
 * A pair from different families is never compatible, whatever the tolerance.
 */
const LOW_FAMILY_MAX = 150;

export interface PowerFacts {
  plugs: readonly string[];
  voltage: number;
  frequency: number;
}

export interface PowerCompatibility {
  adapter_needed: boolean;
  shared_plugs: string[];
  voltage_compatible: boolean;
}

/** True when a device rated for `originVolts` may run on `destinationVolts` (see VOLTAGE_TOLERANCE). */
export function voltageCompatible(originVolts: number, destinationVolts: number): boolean {
  if (originVolts <= LOW_FAMILY_MAX !== destinationVolts <= LOW_FAMILY_MAX) return false;
  return Math.abs(destinationVolts - originVolts) <= VOLTAGE_TOLERANCE * originVolts;
}

/**
 * Compares a destination's power with an origin's, for a traveller carrying
 * devices from the origin.
 *
 * - `shared_plugs`: letters in both lists, sorted (letter equality only).
 * - `adapter_needed`: true when no plug type of the origin enters any socket
 *   type of the destination (physical fit, see plugFitsSocket). False means at
 *   least one of the origin's plug types fits: a device with another of the
 *   origin's plugs may still need an adapter (a US type B plug in a Japanese
 *   A-only socket).
 * - `voltage_compatible`: see voltageCompatible. It answers the voltage
 *   question only: many chargers are rated 100–240 V and work anywhere, which
 *   a traveller reads off the device, not off the country.
 *
 * Frequency (50/60 Hz) is not part of the answer: the spec has no field for
 * it and it matters only to motors and mains-synchronised clocks.
 *
 * @example
 * powerCompatibility({ plugs: ['A', 'B'], voltage: 120, frequency: 60 },
 *                    { plugs: ['G'], voltage: 230, frequency: 50 })
 * // { adapter_needed: true, shared_plugs: [], voltage_compatible: false }
 */
export function powerCompatibility(origin: PowerFacts, destination: PowerFacts): PowerCompatibility {
  const destination_ = new Set(destination.plugs.map((p) => p.toUpperCase()));
  const origin_ = [...new Set(origin.plugs.map((p) => p.toUpperCase()))];
  const shared_plugs = origin_.filter((p) => destination_.has(p)).sort();
  const fits = origin_.some((plug) => [...destination_].some((socket) => plugFitsSocket(plug, socket)));
  return {
    adapter_needed: !fits,
    shared_plugs,
    voltage_compatible: voltageCompatible(origin.voltage, destination.voltage),
  };
}

/**
 * The time zone at a point on Earth, from timezone-boundary-builder's polygons
 * through geo-tz's comprehensive product (one zone per country and region, right
 * before 1970 too). Points at sea answer their nautical Etc/GMT±N zone. Where a
 * point lies on a border or in a disputed area geo-tz returns several zones:
 * the first is answered, all are available through zonesAt.
 */
import { find } from 'geo-tz/all';

/** Every zone geo-tz finds at the point (at least one: the ocean zone at sea). */
export function zonesAt(latitude: number, longitude: number): string[] {
  return find(latitude, longitude);
}

/** The zone at the point: geo-tz's first answer. */
export function zoneAt(latitude: number, longitude: number): string {
  return zonesAt(latitude, longitude)[0];
}

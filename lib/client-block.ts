/**
 * The block of addresses a quota or budget is kept for: an IPv4 address (IPv4-mapped IPv6 included) counts
 * alone; an IPv6 address counts with every address of its /prefix (default /64, the block one subscriber
 * usually holds: one home connection can use 2^64 addresses, and counting each alone would give it
 * unlimited anonymous requests). Pure: the gate and /docs' budget share it.
 */

/** The prefix length IPv6 callers are grouped by, from ANON_IPV6_PREFIX (1-128, default 64); anything else fails at start. */
export function ipv6PrefixOf(env: string | undefined): number {
  if (env === undefined || env === '') return 64;
  const n = Number(env);
  if (!Number.isInteger(n) || n < 1 || n > 128) throw new Error(`ANON_IPV6_PREFIX must be a whole number from 1 to 128 (got "${env}")`);
  return n;
}

/** Eight 16-bit groups of an IPv6 address, or undefined when it is not one (a zone index such as %eth0 is dropped). */
function groupsOf(address: string): number[] | undefined {
  const text = address.split('%')[0];
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const part = (s: string) => (s === '' ? [] : s.split(':'));
  let left = part(halves[0]);
  let right = halves.length === 2 ? part(halves[1]) : [];
  // An embedded IPv4 tail (::ffff:192.0.2.1, 64:ff9b::192.0.2.1) is two groups.
  const tail = (halves.length === 2 ? right : left).at(-1);
  if (tail?.includes('.')) {
    const v4 = tail.split('.').map(Number);
    if (v4.length !== 4 || v4.some((x) => !Number.isInteger(x) || x < 0 || x > 255)) return undefined;
    const extra = [((v4[0] << 8) | v4[1]).toString(16), ((v4[2] << 8) | v4[3]).toString(16)];
    if (halves.length === 2) right = [...right.slice(0, -1), ...extra];
    else left = [...left.slice(0, -1), ...extra];
  }
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  return all.map((g) => parseInt(g, 16));
}

/** The IPv4 address for IPv4 and IPv4-mapped callers, `<first groups>::/<prefix>` for IPv6; anything unparsable as itself. */
export function clientBlock(address: string, prefix = 64): string {
  const groups = address.includes(':') ? groupsOf(address) : undefined;
  if (!groups) return address;
  // ::ffff:a.b.c.d is an IPv4 caller on a dual-stack socket: counted as that IPv4 address.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  const masked = groups.map((g, i) => {
    const bits = Math.min(16, Math.max(0, prefix - 16 * i));
    return bits === 0 ? 0 : g & ((0xffff << (16 - bits)) & 0xffff);
  });
  const kept = Math.ceil(prefix / 16);
  const head = masked.slice(0, kept).map((g) => g.toString(16)).join(':');
  return kept === 8 ? `${head}/${prefix}` : `${head}::/${prefix}`;
}

/**
 * Reads compiled time-zone files (TZif, RFC 8536, version 2+): the 64-bit
 * transition table and the POSIX TZ footer that governs times after it.
 * Pure: takes the file's bytes.
 */

export interface LocalTimeType {
  /** UTC offset in seconds, east positive. */
  utoff: number;
  isdst: boolean;
  abbreviation: string;
}

export interface TzifData {
  /** Transition instants, seconds since the epoch, ascending. */
  times: number[];
  /** Index into `types` in force from each transition on. */
  typeIndices: number[];
  types: LocalTimeType[];
  /** POSIX TZ string for instants after the last transition ('' if none). */
  footer: string;
}

const HEADER = 44;

function counts(view: DataView, at: number) {
  if (view.getUint32(at) !== 0x545a6966) throw new Error('not a TZif file');
  return {
    version: view.getUint8(at + 4),
    isutcnt: view.getUint32(at + 20),
    isstdcnt: view.getUint32(at + 24),
    leapcnt: view.getUint32(at + 28),
    timecnt: view.getUint32(at + 32),
    typecnt: view.getUint32(at + 36),
    charcnt: view.getUint32(at + 40),
  };
}

function blockLength(c: ReturnType<typeof counts>, timeSize: 4 | 8): number {
  return c.timecnt * timeSize + c.timecnt + c.typecnt * 6 + c.charcnt + c.leapcnt * (timeSize + 4) + c.isstdcnt + c.isutcnt;
}

export function parseTzif(bytes: Uint8Array): TzifData {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const v1 = counts(view, 0);
  if (v1.version < 0x32) throw new Error('TZif version 1 has no 64-bit data');
  const at = HEADER + blockLength(v1, 4);
  const c = counts(view, at);
  let p = at + HEADER;
  const times: number[] = [];
  for (let i = 0; i < c.timecnt; i++, p += 8) times.push(Number(view.getBigInt64(p)));
  const typeIndices: number[] = [];
  for (let i = 0; i < c.timecnt; i++, p++) typeIndices.push(view.getUint8(p));
  const raw: { utoff: number; isdst: boolean; abbrind: number }[] = [];
  for (let i = 0; i < c.typecnt; i++, p += 6) raw.push({ utoff: view.getInt32(p), isdst: view.getUint8(p + 4) === 1, abbrind: view.getUint8(p + 5) });
  const chars = new TextDecoder('ascii').decode(bytes.subarray(p, p + c.charcnt));
  p += c.charcnt + c.leapcnt * 12 + c.isstdcnt + c.isutcnt;
  const types = raw.map((t) => ({ utoff: t.utoff, isdst: t.isdst, abbreviation: chars.slice(t.abbrind, chars.indexOf('\0', t.abbrind)) }));
  const rest = new TextDecoder('ascii').decode(bytes.subarray(p));
  const footer = rest.startsWith('\n') ? rest.slice(1, rest.indexOf('\n', 1)) : '';
  return { times, typeIndices, types, footer };
}

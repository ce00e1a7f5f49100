/**
 * TOSCA scalar units (`512 MB`, `3 GB`, `10 ms`, `1 GHz`, `1 Gbps`), normalised to a base unit:
 * bytes, seconds, hertz, bits per second. Size, time and frequency units are matched without regard
 * to case, as tosca-parser does; bitrate units are case-sensitive because `b` (bits) and `B`
 * (bytes) differ.
 */
export type ScalarKind = "size" | "time" | "frequency" | "bitrate";

const SIZE: Record<string, number> = {
  b: 1,
  kb: 1e3,
  kib: 1024,
  mb: 1e6,
  mib: 1024 ** 2,
  gb: 1e9,
  gib: 1024 ** 3,
  tb: 1e12,
  tib: 1024 ** 4,
};
const TIME: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, ns: 1e-9 };
const FREQUENCY: Record<string, number> = { hz: 1, khz: 1e3, mhz: 1e6, ghz: 1e9 };
const BITRATE: Record<string, number> = {
  bps: 1,
  Kbps: 1e3,
  Kibps: 1024,
  Mbps: 1e6,
  Mibps: 1024 ** 2,
  Gbps: 1e9,
  Gibps: 1024 ** 3,
  Tbps: 1e12,
  Tibps: 1024 ** 4,
  Bps: 8,
  KBps: 8e3,
  KiBps: 8 * 1024,
  MBps: 8e6,
  MiBps: 8 * 1024 ** 2,
  GBps: 8e9,
  GiBps: 8 * 1024 ** 3,
  TBps: 8e12,
  TiBps: 8 * 1024 ** 4,
};

const UNITS: Record<ScalarKind, { table: Record<string, number>; caseSensitive: boolean }> = {
  size: { table: SIZE, caseSensitive: false },
  time: { table: TIME, caseSensitive: false },
  frequency: { table: FREQUENCY, caseSensitive: false },
  bitrate: { table: BITRATE, caseSensitive: true },
};

const SCALAR = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*([A-Za-z]+)\s*$/;

/** The last text matched: a value's type check and then each of its constraints read it in a row. */
let last: { text: string; match: RegExpExecArray | null } | undefined;

/** `SCALAR` matched against `text`, remembered for the next call with the same text. */
function matchScalar(text: string): RegExpExecArray | null {
  if (last?.text !== text) last = { text, match: SCALAR.exec(text) };
  return last.match;
}

/** The value in the base unit, or undefined when `text` is not a scalar of this kind. */
export function parseScalar(kind: ScalarKind, text: unknown): number | undefined {
  if (typeof text !== "string") return undefined;
  const m = matchScalar(text);
  if (!m) return undefined;
  const { table, caseSensitive } = UNITS[kind];
  const factor = table[caseSensitive ? m[2] : m[2].toLowerCase()];
  return factor === undefined ? undefined : Number(m[1]) * factor;
}

export function scalarKindOf(type: string): ScalarKind | undefined {
  return type.startsWith("scalar-unit.") ? (type.slice("scalar-unit.".length) as ScalarKind) : undefined;
}

export function unitsOf(kind: ScalarKind): string[] {
  return Object.keys(UNITS[kind].table);
}

/** Powers of 1024 of the size units, decimal ones read as binary (see `toGib`). */
const BINARY_EXPONENT: Record<string, number> = { b: 0, kb: 1, kib: 1, mb: 2, mib: 2, gb: 3, gib: 3, tb: 4, tib: 4 };

/** Size in GiB, as OpenStack wants it (Tacker's normalisation of `3 GB` is 3 GiB too: decimal units are read as binary). */
export function toGib(text: unknown): number | undefined {
  const m = typeof text === "string" ? matchScalar(text) : null;
  if (!m) return undefined;
  const exponent = BINARY_EXPONENT[m[2].toLowerCase()];
  if (exponent === undefined) return undefined;
  return Number(m[1]) * 1024 ** (exponent - 3);
}

/** Size in MiB, with decimal units read as binary (see `toGib`). */
export function toMib(text: unknown): number | undefined {
  const gib = toGib(text);
  return gib === undefined ? undefined : gib * 1024;
}

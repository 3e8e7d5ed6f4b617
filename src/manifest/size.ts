/**
 * Byte sizes: a number and a unit, decimal (KB = 1000) or binary (KiB = 1024): B, KB, KiB, MB,
 * MiB, GB, GiB. Units are case-insensitive and may follow a space (`"1 MiB"`); a bare whole number
 * is bytes. Returns a whole number of bytes, or undefined when the text is not a size.
 */
const UNIT_BYTES: Record<string, number> = {
  b: 1,
  kb: 1e3,
  kib: 1024,
  mb: 1e6,
  mib: 1024 ** 2,
  gb: 1e9,
  gib: 1024 ** 3,
};
const SIZE = /^(\d+(?:\.\d+)?)\s*([a-z]+)?$/i;

export function parseSize(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isSafeInteger(text) && text >= 0 ? text : undefined;
  const m = SIZE.exec(text.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? 'b').toLowerCase();
  const factor = UNIT_BYTES[unit];
  if (factor === undefined) return undefined;
  const bytes = Math.round(Number(m[1]) * factor);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

export const SIZE_HINT = 'write a number followed by a unit (B, KB, KiB, MB, MiB, GB, GiB), as in "1MiB"';

/**
 * The built-in `format` values of SPEC.md §2.3, as ajv format definitions: ajv-formats' "full" ones
 * where they say what the spec says (uri, ipv4, ipv6), ours where they do not: uuid v4 and v7 only;
 * date-time with `T` and `+01:00` only (RFC 3339 §5.6); hostname with internationalised names and the
 * 253-character total; email with its length bounds (64, 254, 63); date sharing date-time's
 * calendar check so the two never disagree about which days exist.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { Format } from 'ajv';
import { createRequire } from 'node:module';
import type * as Tr46 from 'tr46';

const require = createRequire(import.meta.url);
let tr46: typeof Tr46 | undefined;

// --- uuid ---------------------------------------------------------------------------------------

/** RFC 9562: version nibble 4 or 7, variant bits `10` (8, 9, a, b). Either case, no braces, no urn. */
const UUID_V4_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isUuid(s: string): boolean {
  return UUID_V4_V7.test(s);
}

// --- date, date-time (RFC 3339 §5.6) ------------------------------------------------------------

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month]!);
}

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isDate(s: string): boolean {
  const m = FULL_DATE.exec(s);
  return m !== null && validDate(+m[1]!, +m[2]!, +m[3]!);
}

/** full-date "T" full-time; `T` and `Z` may be lower case (§5.6 note); the offset needs its colon. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

export function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (m === null || !validDate(+m[1]!, +m[2]!, +m[3]!)) return false;
  const hour = +m[4]!;
  const minute = +m[5]!;
  const second = +m[6]!;
  const sign = m[7] === '-' ? -1 : 1;
  const offH = m[8] === undefined ? 0 : +m[8];
  const offM = m[9] === undefined ? 0 : +m[9];
  if (hour > 23 || minute > 59 || offH > 23 || offM > 59 || second > 60) return false;
  if (second < 60) return true;
  // A leap second exists only as 23:59:60 UTC (RFC 3339 §5.7): shift by the offset and check.
  const utcMinute = (((hour * 60 + minute - sign * (offH * 60 + offM)) % 1440) + 1440) % 1440;
  return utcMinute === 1439;
}

// --- hostname (RFC 1123, with IDN) ---------------------------------------------------------------

/** 1-63 letters, digits and inner hyphens per label, dot-separated, optional trailing dot. */
const ASCII_HOSTNAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
const NON_ASCII = /[^\x00-\x7f]/;
const A_LABEL = /(?:^|\.)xn--/i;

/**
 * UTS #46 ToASCII (nontransitional) with the WHATWG URL standard's "domain to ASCII" options, except
 * that an `xn--` label which is not valid Punycode is an error; `null` when UTS #46 refuses the name.
 * `tr46` (pure JavaScript, its Unicode table pinned in package.json), not `node:url`'s
 * `domainToASCII`, whose answer changes with the runtime (Node.js 24 accepts `xn--zz.example`, 20 and
 * 22 refuse it). Only NFC comes from ICU: test/portability/runtime.test.ts checks its version.
 */
export function idnaToASCII(name: string): string | null {
  // Loaded by the first name that needs it (synchronously: tr46 is CommonJS): its mapping table is
  // about 7 MB of resident memory that a service validating no hostname never holds.
  const { toASCII } = (tr46 ??= require('tr46') as typeof Tr46);
  return toASCII(name, { checkBidi: true, checkJoiners: true, transitionalProcessing: false, ignoreInvalidPunycode: false });
}

/**
 * RFC 1123 host name or FQDN (an optional trailing dot): labels of 1-63 letters, digits and inner
 * hyphens, 253 characters at most without the trailing dot. A name with Unicode labels goes through
 * UTS #46 first (idnaToASCII: mapped, punycode-encoded, refused when IDNA forbids it) and the ASCII
 * result must pass the same rules, so `bücher.example` is valid; an ASCII `xn--` label must decode to
 * a valid label (`xn--zz` is not valid). The common all-ASCII case is one regular expression.
 */
export function isHostname(s: string, allowIdn = true): boolean {
  let host = s;
  if (NON_ASCII.test(host)) {
    if (!allowIdn) return false;
    const ascii = idnaToASCII(host);
    if (ascii === null) return false;
    host = ascii;
  } else if (A_LABEL.test(host) && idnaToASCII(host) === null) {
    return false;
  }
  const length = host.endsWith('.') ? host.length - 1 : host.length;
  return length <= 253 && ASCII_HOSTNAME.test(host);
}

// --- email (RFC 5322, practical subset) ----------------------------------------------------------

/**
 * dot-atom local part (RFC 5322 §3.2.3) of 1-64 characters, `@`, and a host name of two or more labels
 * without trailing dot.
 */
const EMAIL =
  /^(?=[^@]{1,64}@)[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/**
 * The practical subset of RFC 5322 addr-spec that mail systems accept: a dot-atom local part (no
 * quoted strings, no comments) of at most 64 characters, `@`, and an ASCII host name with at least one
 * dot and no trailing dot (no IP literals); 254 characters in all (RFC 5321 path limit).
 */
export function isEmail(s: string): boolean {
  if (s.length > 254 || !EMAIL.test(s)) return false;
  // The A-label test is on the domain alone: on the whole address, `ada@xn--zz.example` escaped it
  // (its `xn--` follows the `@`, not a dot).
  const domain = s.slice(s.lastIndexOf('@') + 1);
  return !A_LABEL.test(domain) || isHostname(domain, false);
}

// --- the table -----------------------------------------------------------------------------------

const ajvFull = fullFormats as Record<string, Format>;

/** Format name -> ajv definition. Only these names are accepted in a manifest. */
export const FORMATS: Readonly<Record<string, Format>> = {
  email: isEmail,
  uuid: isUuid,
  // ajv-formats' full `uri` requires a scheme: RFC 3986 absolute URI (a fragment is allowed).
  uri: ajvFull.uri!,
  'date-time': isDateTime,
  date: isDate,
  // dotted decimal, each octet 0-255 without leading zeros (`01.2.3.4` is ambiguous: octal or not).
  ipv4: ajvFull.ipv4!,
  // every RFC 4291 §2.2 text form (full, `::` compressed, embedded IPv4); zone ids (`%eth0`) are
  // rejected: they name an interface of one host and mean nothing to a server receiving them.
  ipv6: ajvFull.ipv6!,
  hostname: (s: string) => isHostname(s, true),
};

export const FORMAT_NAMES: readonly string[] = Object.keys(FORMATS);

export function isKnownFormat(name: string): boolean {
  return Object.hasOwn(FORMATS, name);
}

/** Test one value against a named format (used by tests and by boot checks of defaults). */
export function checkFormat(name: string, value: string): boolean {
  const def = FORMATS[name];
  if (def === undefined) return false;
  if (typeof def === 'function') return def(value) as boolean;
  if (def instanceof RegExp) return def.test(value);
  if (typeof def === 'object' && 'validate' in def) {
    const v = def.validate;
    return typeof v === 'function' ? (v as (s: string) => boolean)(value) : (v as RegExp).test(value);
  }
  return true;
}

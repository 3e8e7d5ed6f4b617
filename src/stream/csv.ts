/**
 * CSV (SPEC.md §4.3, DECISIONS.md §6): RFC 4180 text through `csv-stringify`, a header row (from
 * `columns`, else the first item's keys) then one CRLF-terminated record per item.
 *
 * One Stringifier per encoding, built at boot, and its record formatter (`api.stringify`, untyped:
 * checked at boot) called per record, cheaper than the package's entry points (bench/export README
 * "The csv record formatter"). Cells are converted here (`cell`), not by its `cast` (booleans as 1,
 * dates as epoch ms, a throw on BigInt). `neutralizeFormulas`: docs/streams.md "Spreadsheet formulas in `csv`".
 */
import { createRequire } from 'node:module';
import type * as CsvStringify from 'csv-stringify';
import type { EncodingOptions, StreamEncoder, StreamEncoding } from './types.js';
import { StreamItemError } from './types.js';
import { jsonText } from './json-text.js';

const RECORD_END = '\r\n';

type FormatRecord = (cells: readonly string[]) => string;

/** How a value becomes a cell's text (`cell`, or `neutralCell` when formulas are neutralised). */
type ToCell = (value: unknown) => string;

export function csvEncoding(options: EncodingOptions): StreamEncoding {
  const formatRecord = recordFormatter();
  const configured = options.columns ? [...options.columns] : undefined;
  const configuredHeader = configured ? formatRecord(configured) + RECORD_END : '';
  const toCell = options.neutralizeFormulas ? neutralCell : cell;
  return {
    format: 'csv',
    contentType: options.contentType,
    headers: {},
    heartbeatMs: undefined,
    flushEvery: 1,
    open: () => csvEncoder(formatRecord, toCell, configured, configuredHeader),
  };
}

/** One response: the header row comes before the first record, once. */
function csvEncoder(formatRecord: FormatRecord, toCell: ToCell, configured: readonly string[] | undefined, configuredHeader: string): StreamEncoder {
  let columns = configured;
  let headerSent = false;
  return {
    // Configured columns are known before any item: an empty result is still a header row.
    start() {
      if (!configured) return '';
      headerSent = true;
      return configuredHeader;
    },
    item(value) {
      let header = '';
      if (!headerSent) {
        headerSent = true;
        if (columns) header = configuredHeader;
        else if (isRecordObject(value)) {
          columns = Object.keys(value);
          // The keys are data here, not the author's: neutralised like any string cell.
          header = formatRecord(toCell === cell ? columns : columns.map(neutralText)) + RECORD_END;
        }
        // A first item that is an array, without configured columns: positional rows, no header.
      }
      return header + formatRecord(cellsOf(value, columns, toCell)) + RECORD_END;
    },
    // CSV cannot say "failed": the connection is aborted and the client sees a truncated transfer.
    error: () => undefined,
    heartbeat: () => '',
    shutdown: () => '',
  };
}

function isRecordObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value);
}

function cellsOf(value: unknown, columns: readonly string[] | undefined, toCell: ToCell): string[] {
  if (Array.isArray(value)) {
    // Positional; with known columns the row has exactly their number of fields (RFC 4180 §2.4).
    const n = columns ? columns.length : value.length;
    const cells = new Array<string>(n);
    for (let i = 0; i < n; i++) cells[i] = toCell(value[i]);
    return cells;
  }
  if (!isRecordObject(value)) {
    throw new StreamItemError(`csv: an item must be an object or an array, got ${value === null ? 'null' : typeof value}`);
  }
  if (!columns) throw new StreamItemError('csv: an object item after array items needs the columns attribute (no header row names its fields)');
  const cells = new Array<string>(columns.length);
  for (let i = 0; i < columns.length; i++) {
    const key = columns[i]!;
    const field = value[key];
    // Only the item's own fields: a column named `constructor` must not read Object.prototype's.
    cells[i] = (typeof field === 'object' || typeof field === 'function') && !Object.hasOwn(value, key) ? '' : toCell(field);
  }
  return cells;
}

function cell(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : '';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return '';
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
      return jsonText(value, 'csv');
    default:
      // undefined, and functions and symbols, which JSON leaves out too.
      return '';
  }
}

/** A cell with formulas neutralised (see the module comment): only strings can hold one. */
function neutralCell(value: unknown): string {
  return typeof value === 'string' ? neutralText(value) : cell(value);
}

/** `=`, `+`, `-`, `@`, tab and CR: the first characters OWASP's CSV injection advice lists. */
const FORMULA_START = /^[=+\-@\t\r]/;

function neutralText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

interface StringifierInternals {
  readonly api?: { stringify?: (record: readonly string[], isHeader?: boolean) => [Error | undefined, string | undefined] };
}

/**
 * csv-stringify, loaded by the first csv encoding, which a csv stream step builds at boot: a service
 * without one never loads it (test/connectors/modules-loaded-boot.test.ts). Required synchronously
 * (its CommonJS build is one file; its ES module build eight) and kept by the module loader.
 */
function loadCsvStringify(): typeof CsvStringify {
  return createRequire(import.meta.url)('csv-stringify') as typeof CsvStringify;
}

/** csv-stringify's record formatter (see the module comment): comma, `"` quoting, CR, LF and CRLF all quoted. */
function recordFormatter(): FormatRecord {
  // The formatter writes no record end (the encoder adds CRLF), so the delimiter only steers quoting:
  // a single-character one is the cheaper check, and quote_record_delimiter quotes any field holding a
  // CR or LF (csv-stringify turns it off when a record_delimiter is given; RFC 4180 wants both quoted).
  const stringifier = new (loadCsvStringify().Stringifier)({ record_delimiter: '\n', quote_record_delimiter: true });
  const api = (stringifier as unknown as StringifierInternals).api;
  const stringify = api?.stringify;
  if (typeof stringify !== 'function') throw new Error('csv-stringify: the Stringifier no longer exposes api.stringify; the csv encoder needs updating');
  return (cells) => {
    const [error, text] = stringify.call(api, cells);
    if (error) throw new StreamItemError(`csv: ${error.message}`, { cause: error });
    return text ?? '';
  };
}

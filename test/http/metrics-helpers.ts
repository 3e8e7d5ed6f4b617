/**
 * A strict parser of the Prometheus text exposition format (version 0.0.4), for the metrics tests, and
 * a whole service served with metrics as `svc serve` wires them (src/cli/log-settings.ts).
 *
 * Strict where the format is: metric and label names, label value escapes (only \\, \" and \n),
 * values (Go floats, NaN, +Inf, -Inf), one TYPE and one HELP per family before its samples, a
 * family's samples together, no sample twice, the text ending with a newline; and for histograms,
 * buckets with `le` in increasing order, counts that never decrease, a `+Inf` bucket equal to
 * `_count`, and `_sum` present. Anything else throws, naming the line.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { logSettings, serveTelemetry } from '../../src/cli/log-settings.js';
import { createConnectors, type ConnectorSet } from '../../src/connectors/index.js';
import type { Diagnostic } from '../../src/diag/index.js';
import { buildServer } from '../../src/http/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { LogCapture } from './helpers.js';

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  type: MetricType;
  help: string | undefined;
  readonly samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES: readonly MetricType[] = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];
/** Go's strconv.ParseFloat as the text format uses it, plus the special values. */
const FLOAT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|Inf|NaN)$/;

export function parseMetrics(text: string): Map<string, Family> {
  if (text !== '' && !text.endsWith('\n')) throw new Error('the text does not end with a newline');
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  const typed = new Set<Family>();
  const sampleKeys = new Set<string>();
  let current: Family | undefined;
  const lines = text.split('\n').slice(0, -1);
  lines.forEach((line, i) => {
    const where = `line ${i + 1} (${JSON.stringify(line)})`;
    try {
      if (line.trim() === '') return;
      if (line.startsWith('#')) {
        const m = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line);
        if (m === null) return; // a comment
        const [, keyword, name, rest = ''] = m as unknown as [string, 'HELP' | 'TYPE', string, string | undefined];
        if (!fullMatch(METRIC_NAME, name)) throw new Error(`bad metric name ${name}`);
        const family = familyFor(name, families, seen, current);
        current = family;
        if (keyword === 'HELP') {
          if (family.help !== undefined) throw new Error(`a second HELP for ${name}`);
          family.help = unescapeHelp(rest);
        } else {
          if (family.samples.length > 0) throw new Error(`TYPE for ${name} after its samples`);
          if (family.type !== 'untyped' || typed.has(family)) throw new Error(`a second TYPE for ${name}`);
          if (!(TYPES as readonly string[]).includes(rest)) throw new Error(`unknown type ${rest}`);
          family.type = rest as MetricType;
          typed.add(family);
        }
        return;
      }
      const sample = parseSample(line);
      const familyName = familyOfSample(sample.name, current);
      const family = familyFor(familyName, families, seen, current);
      current = family;
      checkSuffix(family, sample);
      const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
      if (sampleKeys.has(key)) throw new Error(`sample ${key} twice`);
      sampleKeys.add(key);
      family.samples.push(sample);
    } catch (error) {
      throw new Error(`${where}: ${(error as Error).message}`);
    }
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** The family a line belongs to: the current one continued, or a new one never seen before. */
function familyFor(name: string, families: Map<string, Family>, seen: Set<string>, current: Family | undefined): Family {
  if (current?.name === name) return current;
  if (seen.has(name)) throw new Error(`the samples or metadata of ${name} are not together`);
  seen.add(name);
  const family: Family = { name, type: 'untyped', help: undefined, samples: [] };
  families.set(name, family);
  return family;
}

/** `x_bucket`, `x_sum`, `x_count` belong to the histogram or summary `x` being read. */
function familyOfSample(name: string, current: Family | undefined): string {
  if (current !== undefined && (current.type === 'histogram' || current.type === 'summary')) {
    for (const suffix of ['_bucket', '_sum', '_count']) if (name === current.name + suffix) return current.name;
  }
  return name;
}

function checkSuffix(family: Family, sample: Sample): void {
  if (family.type === 'histogram') {
    if (sample.name === `${family.name}_bucket`) {
      if (sample.labels.le === undefined) throw new Error('a bucket without le');
    } else if (sample.name !== `${family.name}_sum` && sample.name !== `${family.name}_count`) {
      throw new Error(`${sample.name} in histogram ${family.name}`);
    }
  } else if (family.type === 'summary') {
    if (sample.name === family.name && sample.labels.quantile === undefined) throw new Error('a summary sample without quantile');
  } else if (sample.name !== family.name) {
    throw new Error(`${sample.name} in family ${family.name}`);
  }
}

function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: [number, number][]; sum?: number; count?: number }>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    let entry = series.get(key);
    if (entry === undefined) series.set(key, (entry = { buckets: [] }));
    if (s.name.endsWith('_bucket')) entry.buckets.push([parseFloatStrict(le!), s.value]);
    else if (s.name.endsWith('_sum')) entry.sum = s.value;
    else entry.count = s.value;
  }
  for (const [key, entry] of series) {
    const where = `histogram ${family.name}${key}`;
    if (entry.count === undefined || entry.sum === undefined) throw new Error(`${where}: _count or _sum missing`);
    const last = entry.buckets.at(-1);
    if (last === undefined || last[0] !== Number.POSITIVE_INFINITY) throw new Error(`${where}: no +Inf bucket last`);
    if (last[1] !== entry.count) throw new Error(`${where}: +Inf bucket ${last[1]} != _count ${entry.count}`);
    for (let i = 1; i < entry.buckets.length; i++) {
      const [le0, n0] = entry.buckets[i - 1]!;
      const [le1, n1] = entry.buckets[i]!;
      if (!(le1 > le0)) throw new Error(`${where}: le not increasing (${le0}, ${le1})`);
      if (n1 < n0) throw new Error(`${where}: bucket counts decrease (${n0}, ${n1})`);
    }
  }
}

function parseSample(line: string): Sample {
  const name = METRIC_NAME.exec(line)?.[0];
  if (name === undefined) throw new Error('no metric name');
  let at = name.length;
  const labels: Record<string, string> = {};
  if (line[at] === '{') {
    at++;
    for (;;) {
      if (line[at] === '}') {
        at++;
        break;
      }
      const label = LABEL_NAME.exec(line.slice(at))?.[0];
      if (label === undefined) throw new Error(`bad label name at column ${at + 1}`);
      if (label.startsWith('__')) throw new Error(`reserved label name ${label}`);
      if (label in labels) throw new Error(`label ${label} twice`);
      at += label.length;
      if (line.slice(at, at + 2) !== '="') throw new Error(`expected =" after ${label}`);
      at += 2;
      let value = '';
      for (;;) {
        const c = line[at];
        if (c === undefined) throw new Error('unterminated label value');
        at++;
        if (c === '"') break;
        if (c === '\\') {
          const e = line[at++];
          if (e === '\\') value += '\\';
          else if (e === '"') value += '"';
          else if (e === 'n') value += '\n';
          else throw new Error(`bad escape \\${e ?? ''} in a label value`);
        } else value += c;
      }
      labels[label] = value;
      if (line[at] === ',') at++;
      else if (line[at] !== '}') throw new Error(`expected , or } at column ${at + 1}`);
    }
  }
  const rest = line.slice(at);
  const m = /^[ \t]+(\S+)(?:[ \t]+(-?\d+))?[ \t]*$/.exec(rest);
  if (m === null) throw new Error(`bad value part ${JSON.stringify(rest)}`);
  return { name, labels, value: parseFloatStrict(m[1]!) };
}

function parseFloatStrict(text: string): number {
  if (!FLOAT.test(text)) throw new Error(`not a float: ${text}`);
  if (text === '+Inf' || text === 'Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  return text === 'NaN' ? Number.NaN : Number(text);
}

function unescapeHelp(text: string): string {
  return text.replace(/\\(.?)/g, (_, e: string) => {
    if (e === '\\') return '\\';
    if (e === 'n') return '\n';
    throw new Error(`bad escape \\${e} in HELP`);
  });
}

function fullMatch(re: RegExp, text: string): boolean {
  return re.exec(text)?.[0] === text;
}

/** The value of the sample `name` with exactly `labels`; undefined when absent. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const family of families.values()) {
    for (const s of family.samples) {
      if (s.name !== name) continue;
      const keys = Object.keys(s.labels);
      if (keys.length === Object.keys(labels).length && keys.every((k) => s.labels[k] === labels[k])) return s.value;
    }
  }
  return undefined;
}

/** Every sample named `name`. */
export function samplesOf(families: Map<string, Family>, name: string): Sample[] {
  return [...families.values()].flatMap((f) => f.samples.filter((s) => s.name === name));
}

export interface MetricsService {
  readonly app: FastifyInstance;
  readonly connectors: ConnectorSet;
  readonly log: LogCapture;
  /** GET the page, assert it is Prometheus text, parse it strictly. */
  scrape(): Promise<Map<string, Family>>;
  close(): Promise<void>;
}

/**
 * A service from manifest text wired as `svc serve` wires it: the telemetry of src/cli/log-settings.ts
 * (level, access log, metrics from the server block), compiled, connections open, on a Fastify app.
 */
export async function serveWithTelemetry(source: string, options: { env?: Record<string, string>; dir?: string } = {}): Promise<MetricsService> {
  const built = buildServiceModel([{ filename: 'api.hcl', source }], { dir: options.dir ?? '.' });
  const summaries = (ds: readonly Diagnostic[]): string[] => ds.map((d) => `${d.subject?.start.line}: ${d.summary}: ${d.detail ?? ''}`);
  assert.deepEqual(summaries(built.diagnostics.filter((d) => d.severity === 'error')), []);
  const model = built.model!;
  const log = new LogCapture();
  const telemetry = serveTelemetry(logSettings({ flags: {}, positionals: [] }, options.env ?? {}), { stream: log });
  const connectors = createConnectors(model);
  const service = compileService(model, { connectors, observeSteps: telemetry.observeSteps });
  assert.deepEqual(summaries(service.diagnostics), []);
  telemetry.settle(model.server);
  await connectors.openAll();
  const app = await buildServer({
    endpoints: service.endpoints,
    bodyLimit: 1024 * 1024,
    requestTimeoutMs: model.server.requestTimeoutMs,
    ...telemetry.serverOptions(model.server, connectors),
  });
  const path = model.server.metricsPath ?? '/metrics';
  return {
    app,
    connectors,
    log,
    async scrape() {
      const response = await app.inject({ method: 'GET', url: path });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
      return parseMetrics(response.body);
    },
    async close() {
      await app.close();
      await connectors.closeAll();
    },
  };
}

/**
 * Whether a CommonJS package of node_modules has been loaded into this process (the tests of what
 * a service loads only when it needs it run in processes of their own).
 */
export function packageLoaded(name: string): boolean {
  return Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes(`/node_modules/${name}/`));
}

/**
 * Histograms recorded per request at the cost of a few additions, read by prom-client at scrape time.
 * prom-client's Histogram validates labels, builds a key and looks up the bucket by name on every
 * observation, several times what this costs (bench/health README "Metrics on and off").
 * Here a series is found once (a step kind's at boot) or by one Map lookup, and `get()` gives
 * prom-client's own shape, so the text format and the cluster aggregation stay prom-client's.
 */
import type * as PromClient from 'prom-client';

/** One combination of label values: its observations, their sum and per-bucket counts. */
export class Series {
  count = 0;
  sum = 0;
  /** Non-cumulative: counts[i] is the number of values in (bounds[i-1], bounds[i]]; the last is +Inf. */
  readonly counts: Float64Array;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]!++;
    this.count++;
    this.sum += value;
  }
}

/** What prom-client's metrics answer to `get()` (its typings give `type` as a number; it is text). */
interface MetricJson {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly values: readonly { readonly labels: Readonly<Record<string, string | number>>; readonly value: number; readonly metricName?: string }[];
  readonly aggregator: PromClient.Aggregator;
}

/** A histogram whose series the caller holds on to; registered in a prom-client registry. */
export class SeriesHistogram {
  readonly aggregator: PromClient.Aggregator = 'sum';
  private readonly all = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly bounds: readonly number[],
  ) {}

  /** The series of these label values (in `labelNames` order), made on first use. */
  series(...values: string[]): Series {
    const key = values.join('\u0000');
    let series = this.all.get(key);
    if (series === undefined) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((name, i) => {
        labels[name] = values[i]!;
      });
      series = new Series(labels, this.bounds);
      this.all.set(key, series);
    }
    return series;
  }

  /** prom-client's view: cumulative `_bucket` samples (le), `_sum`, `_count`, per series. */
  get(): MetricJson {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const series of this.all.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += series.counts[i]!;
        values.push({ labels: { ...series.labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...series.labels, le: '+Inf' }, value: series.count, metricName: `${this.name}_bucket` });
      values.push({ labels: series.labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: series.labels, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: 'histogram', values, aggregator: this.aggregator };
  }

  /** A counter of the observations of every series, under its own name. */
  counter(name: string, help: string): { readonly name: string; get(): MetricJson } {
    const all = this.all;
    return {
      name,
      get: () => ({
        name,
        help,
        type: 'counter',
        values: [...all.values()].map((series) => ({ labels: series.labels, value: series.count })),
        aggregator: 'sum',
      }),
    };
  }
}

/** Adds a metric of this file to a registry (prom-client reads `name` and `get()` only). */
export function register(registry: PromClient.Registry, metric: { readonly name: string; get(): MetricJson }): void {
  registry.registerMetric(metric as unknown as PromClient.Metric);
}

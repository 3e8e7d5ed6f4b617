/**
 * The series histograms of src/http/metrics-series.ts as prom-client shows them: `le` inclusive,
 * cumulative buckets, the counter view of the same series, and the cluster's sum of two registries.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AggregatorRegistry, Registry } from 'prom-client';
import { register, SeriesHistogram } from '../../src/http/metrics-series.js';
import { parseMetrics, sampleValue } from './metrics-helpers.js';

function registryWith(values: number[]): Registry {
  const registry = new Registry();
  const h = new SeriesHistogram('t_seconds', 'test', ['route'], [0.1, 1]);
  register(registry, h.counter('t_total', 'count'));
  register(registry, h);
  const series = h.series('/a');
  for (const v of values) series.observe(v);
  h.series('/never');
  return registry;
}

test('buckets are cumulative and inclusive of their bound; the counter counts the same observations', async () => {
  const page = parseMetrics(await registryWith([0.05, 0.1, 0.5, 1, 7]).metrics());
  const bucket = (le: string) => sampleValue(page, 't_seconds_bucket', { route: '/a', le });
  assert.deepEqual([bucket('0.1'), bucket('1'), bucket('+Inf')], [2, 4, 5]);
  assert.equal(sampleValue(page, 't_seconds_count', { route: '/a' }), 5);
  assert.ok(Math.abs(sampleValue(page, 't_seconds_sum', { route: '/a' })! - 8.65) < 1e-9);
  assert.equal(sampleValue(page, 't_total', { route: '/a' }), 5);
  // A series asked for and never observed reads 0, buckets included.
  assert.equal(sampleValue(page, 't_seconds_bucket', { route: '/never', le: '+Inf' }), 0);
  assert.equal(sampleValue(page, 't_total', { route: '/never' }), 0);
  assert.equal(page.get('t_seconds')?.type, 'histogram');
  assert.equal(page.get('t_total')?.type, 'counter');
});

test('two processes are summed by prom-client’s aggregation, series by series', async () => {
  const one = await registryWith([0.05, 2]).getMetricsAsJSON();
  const two = await registryWith([0.5]).getMetricsAsJSON();
  const page = parseMetrics(await AggregatorRegistry.aggregate([one, two]).metrics());
  assert.equal(sampleValue(page, 't_total', { route: '/a' }), 3);
  assert.deepEqual(
    ['0.1', '1', '+Inf'].map((le) => sampleValue(page, 't_seconds_bucket', { route: '/a', le })),
    [1, 2, 3],
  );
});

/**
 * The program's own step kinds. `defineStep` checks a definition at once; the attributes' schema
 * gives the manifest's diagnostics (unknown attribute, missing required, wrong type) and types the
 * values `run` receives. A kind's own problems have codes of its own (`codes`), which its `check`
 * reports with at boot.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { defineStep } from 'svc';

const GAZETTEER: Readonly<Record<string, { lat: number; lon: number }>> = {
  paris: { lat: 48.8566, lon: 2.3522 },
  lyon: { lat: 45.764, lon: 4.8357 },
  berlin: { lat: 52.52, lon: 13.405 },
  madrid: { lat: 40.4168, lon: -3.7038 },
};

/** `geocode "<label>" { city = ... }`: `found`, and the city's `city`, `lat` and `lon` when found. */
export const geocode = defineStep({
  name: 'geocode',
  attributes: { city: { type: 'string', required: true } },
  // The kind's own diagnostic, SVC_STEP_<NAME>_<WHAT>: a city written in the manifest that the
  // gazetteer lacks would never be found. A warning: the manifest still loads.
  codes: [
    {
      code: 'SVC_STEP_GEOCODE_UNKNOWN_CITY',
      summary: 'City not in the gazetteer',
      description: 'A warning: a geocode step whose city, known at boot, is not in the gazetteer, so it is never found.',
    },
  ],
  check({ city }, report) {
    if (city !== undefined && GAZETTEER[city.trim().toLowerCase()] === undefined) {
      report.warning('City not in the gazetteer', { attribute: 'city', detail: `The gazetteer knows ${Object.keys(GAZETTEER).join(', ')}.` });
    }
  },
  // Each output with its schema: the OpenAPI document types the responses that read them.
  outputs: {
    found: { type: 'boolean' },
    city: { type: 'string' },
    lat: { type: ['number', 'null'] },
    lon: { type: ['number', 'null'] },
  },
  run({ city }) {
    const key = city.trim().toLowerCase();
    const place = GAZETTEER[key];
    return place === undefined ? { found: false, city: key, lat: null, lon: null } : { found: true, city: key, ...place };
  },
});

/**
 * `waypoints "<label>" { from = [lat, lon], to = [lat, lon], count = n }`: `count` points on the
 * straight line, made one at a time as the client reads them (the stream step pulls the next one
 * only when the previous has been written), and no more once the client has gone (the signal).
 */
export const waypoints = defineStep({
  name: 'waypoints',
  attributes: {
    from: { type: 'list', required: true },
    to: { type: 'list', required: true },
    count: { type: 'int' },
  },
  stream: true,
  items: {
    type: 'object',
    properties: { i: { type: 'integer' }, lat: { type: 'number' }, lon: { type: 'number' } },
    required: ['i', 'lat', 'lon'],
  },
  run({ from, to, count }, { signal }) {
    const [lat0, lon0] = from as [number, number];
    const [lat1, lon1] = to as [number, number];
    const n = count ?? 10;
    return (async function* points() {
      for (let i = 0; i < n && !signal.aborted; i++) {
        const t = n === 1 ? 1 : i / (n - 1);
        yield { i, lat: lat0 + (lat1 - lat0) * t, lon: lon0 + (lon1 - lon0) * t };
        // Long routes yield the event loop now and then, as real I/O would.
        if (i % 1000 === 999) await nextTurn();
      }
    })();
  },
});

/**
 * One measured download of the export benchmarks (bench/export, bench/mysql): the body read whole
 * (or slowly, then left) by ./download-client.ts in its own process, while the server's CPU time and
 * memory are read from /proc: its peak RSS (VmHWM, reset before the download) and its RSS sampled
 * every `everyMs`.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { compiled, cpuMs, memoryMiB, onJsonLines, resetPeak, RssSampler, spawnNode } from './procs.js';

/** The client script, for `buildOnce`. */
export const DOWNLOAD_CLIENT = 'bench/lib/download-client';

/** What the client prints (./download-client.ts). */
interface ClientResult {
  readonly status: number;
  readonly bytes: number;
  readonly lines: number;
  readonly headMs: number;
  readonly totalMs: number;
  /** With `--hash`. */
  readonly sha256?: string;
  /** The slow client left before the end. */
  readonly left?: boolean;
  readonly error?: string;
}

export interface Download extends ClientResult {
  /** The server's CPU time during the download. */
  readonly cpuMs: number;
  /** The highest RSS sample (MiB). */
  readonly rssMax: number;
  /** VmHWM after the download, reset before it (MiB); NaN when the reset was not permitted. */
  readonly peak: number;
  readonly samples: readonly { atMs: number; rss: number }[];
}

/** Runs the client on `url` (with its `args`: `--hash`, `--rate`, `--seconds`) and answers its result. */
function runClient(url: string, args: readonly string[]): Promise<ClientResult> {
  return new Promise((resolveResult, reject) => {
    const child = spawnNode(compiled(DOWNLOAD_CLIENT, [url, ...args]), { stdout: 'pipe' });
    let result: ClientResult | undefined;
    onJsonLines(child, (message) => (result = message as unknown as ClientResult));
    child.once('exit', (code) => (result ? resolveResult(result) : reject(new Error(`the client exited with code ${code} without a result`))));
  });
}

/** Downloads `url` from the server process `pid`, measuring that process meanwhile. */
export async function measuredDownload(pid: number, url: string, args: readonly string[] = [], everyMs = 50): Promise<Download> {
  const peakReset = resetPeak(pid);
  const sampler = new RssSampler(pid, everyMs);
  const before = cpuMs(pid);
  const result = await runClient(url, args);
  const cpu = cpuMs(pid) - before;
  const { max } = sampler.stop();
  return { ...result, cpuMs: cpu, rssMax: max, peak: peakReset ? memoryMiB(pid).peak : NaN, samples: sampler.samples };
}

/** Body MB (10^6 bytes) per second of a download. */
export const mbps = (d: Download): number => d.bytes / 1e6 / (d.totalMs / 1000);

/** The first words of a run's heading: when, the CPUs, memory and Node.js. */
export function machine(): string {
  return `${new Date().toISOString()}: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}`;
}

/** The machine's load averages (1, 5, 15 minutes), for the heading. */
export function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

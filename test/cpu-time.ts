/**
 * CPU time, for the tests that bound how long synchronous work takes: on a loaded machine (CI runs
 * the Node lines beside the main run) wall time stretches with whatever else runs, and a test timing
 * a computation by the clock fails for no fault of the code. The process's CPU time does not stretch.
 */
export function cpuTimer(): () => number {
  const start = process.cpuUsage();
  return () => {
    const { user, system } = process.cpuUsage(start);
    return (user + system) / 1000;
  };
}

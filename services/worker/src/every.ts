/**
 * Runs `task` now and then every `intervalMs`, one run at a time: a tick that finds the previous run
 * still going (a dependency hanging) is skipped, so runs never pile up. `close` waits for the current one.
 */
export function every(intervalMs: number, task: () => Promise<void>, onError: (error: string) => void) {
  let running: Promise<void> = Promise.resolve();
  let inFlight = false;
  const run = () => {
    if (inFlight) return;
    inFlight = true;
    running = task()
      .catch((error: unknown) => onError(error instanceof Error ? error.message : String(error)))
      .finally(() => (inFlight = false));
  };
  run();
  const timer = setInterval(run, intervalMs);
  return {
    /** Stops the ticks; with `wait` (the default), also waits for the run in flight. */
    close: async ({ wait = true } = {}) => {
      clearInterval(timer);
      if (wait) await running;
    },
  };
}

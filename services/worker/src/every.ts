export type EveryOptions = {
  /**
   * The largest share of the time the task may spend running (0 < share ≤ 1, 1 by default). After a run
   * that took `d`, ticks are skipped for `d × (1 / share − 1)`: a task whose cost grows with the data (a
   * lag sample over a million lagging places) runs less often instead of keeping a database backend
   * busy without pause.
   */
  maxBusyShare?: number;
};

/**
 * Runs `task` now and then every `intervalMs`, one run at a time: a tick that finds the previous run
 * still going (a dependency hanging) is skipped, so runs never pile up. `close` waits for the current one.
 */
export function every(
  intervalMs: number,
  task: () => Promise<void>,
  onError: (error: string) => void,
  { maxBusyShare = 1 }: EveryOptions = {},
) {
  if (!(maxBusyShare > 0 && maxBusyShare <= 1)) throw new RangeError('maxBusyShare must be in (0, 1]');
  let running: Promise<void> = Promise.resolve();
  let inFlight = false;
  let restUntil = 0;
  const run = () => {
    if (inFlight || performance.now() < restUntil) return;
    inFlight = true;
    const startedAt = performance.now();
    running = task()
      .catch((error: unknown) => onError(error instanceof Error ? error.message : String(error)))
      .finally(() => {
        inFlight = false;
        const endedAt = performance.now();
        restUntil = endedAt + (endedAt - startedAt) * (1 / maxBusyShare - 1);
      });
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

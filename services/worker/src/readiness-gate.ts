import type { Worker } from 'bullmq';
import type { Logger } from 'pino';
import type { ReadinessReport } from '@directory/observability';

// Short enough that a recovered dependency resumes work within a second or so, long enough to cost nothing.
const READINESS_POLL_MS = 1_000;

export type ReadinessGate = { close: () => Promise<void> };

/** Whether the worker takes jobs now; shared by the gate (which sets it) and the job processor. */
export type JobAdmission = { isOpen: () => boolean; set: (open: boolean) => void };

export function createJobAdmission(): JobAdmission {
  let open = true;
  return { isOpen: () => open, set: (value) => (open = value) };
}

/**
 * A worker whose dependencies are down takes no jobs: taking one would only fail it and spend one of
 * its attempts. It pauses (in-flight jobs finish or fail on their own) and resumes once every
 * dependency answers again.
 */
export function gateOnReadiness(
  worker: Pick<Worker, 'pause' | 'resume'>,
  readiness: () => Promise<ReadinessReport>,
  admission: JobAdmission,
  options: { logger: Logger; onChange: (takingJobs: boolean) => void },
): ReadinessGate {
  let stopped = false;
  options.onChange(admission.isOpen());

  const poll = async () => {
    const report = await readiness();
    if (stopped) return;
    if (!report.ready && admission.isOpen()) {
      admission.set(false);
      await worker.pause(true);
      const failing = report.dependencies.filter((dependency) => !dependency.ready);
      options.logger.warn(
        { notReady: failing.map(({ name, reason }) => ({ name, reason })) },
        'dependencies not ready; taking no jobs until they are back',
      );
      options.onChange(false);
    } else if (report.ready && !admission.isOpen()) {
      admission.set(true);
      worker.resume();
      options.logger.info('dependencies ready again; taking jobs');
      options.onChange(true);
    }
  };

  let polling: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    polling = polling.then(poll).catch((error: unknown) => {
      options.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'readiness poll failed',
      );
    });
  }, READINESS_POLL_MS);

  return {
    close: async () => {
      stopped = true;
      clearInterval(timer);
      await polling;
    },
  };
}

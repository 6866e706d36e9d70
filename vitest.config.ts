import { defineConfig } from 'vitest/config';
import { FileTimesReporter } from './packages/testing/src/file-times-reporter.js';
import { LongestFirstSequencer } from './packages/testing/src/longest-first-sequencer.js';

// Every project that starts the project's processes starts them as production does, from the compiled
// build (`node dist/directory.js <command>`, packages/testing/src/processes.ts): a third of tsx's start-up
// CPU. Its global setup builds first when the build is missing or older than its sources.
const COMPILED_PROCESSES = { DIRECTORY_PROCESSES: 'compiled' };
const SERVER_SETUP = ['packages/testing/src/compiled-build-setup.ts', 'packages/testing/src/global-setup.ts'];

// Seven projects (docs/development.md, "Tests"): unit specs need no servers and start no process (smoke
// specs start processes or build, without servers); integration, end-to-end,
// faults, security and cluster specs run against the real PostgreSQL, Redis and Elasticsearch brought up
// once per run by the global setup; faults and cluster scenarios also start private instances of their own.
// `npm run test:<unit|smoke|int|e2e|faults|security|cluster>` runs one project.
export default defineConfig({
  test: {
    // Two workers on two cores: every spec file has its own database, Redis prefix and index, so files
    // run side by side (measured on the integration project: 1 worker about 8 min wall with the rest of
    // its group, 2 workers 225 s, 3 workers 208 s with more contention). The faults, security and cluster
    // projects keep one file at a time (below).
    maxWorkers: 2,
    minWorkers: 1,
    // A worker process serves file after file, and the files of a project share its module graph
    // instead of importing every module again (unit, integration and e2e: 874 s with a graph per file,
    // 547 s shared, one quiet day with coverage). A spec leaves nothing behind that a later file could
    // meet (docs/development.md, "Tests"). Smoke files, which build and start commands, and the security
    // project keep a graph per file (below).
    poolOptions: { forks: { isolate: false } },
    // Each project's longest files start first (times of an earlier run, test/file-durations.json), so no
    // long file starts last and keeps one worker busy while the other idles at the end of the project.
    sequence: { sequencer: LongestFirstSequencer },
    // Every run leaves each file's whole time in test-results/file-durations.json (the sequencer's input
    // once copied to test/file-durations.json after a full run: `npm run test:durations`).
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: 'test-results/vitest.json' }], new FileTimesReporter()]
      : ['default', new FileTimesReporter()],
    // `--coverage` (CI passes it): what the specs run of every workspace's src/, in this process and the
    // workers (not the processes specs start); .ci/coverage.mjs prints it per workspace.
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts', 'services/*/src/**/*.ts'],
      exclude: ['**/generated/**'],
      reporter: [['json-summary', { file: 'coverage-summary.json' }], 'text-summary'],
      reportsDirectory: 'test-results/coverage',
      // A red run still says what it covered.
      reportOnFailure: true,
    },
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/test/**/*.unit.spec.ts',
            'services/*/test/**/*.unit.spec.ts',
            'test/**/*.unit.spec.ts',
          ],
        },
      },
      {
        // What starts a process or builds the bundle but needs no server (the production build, the
        // command's exits, the image's health check, the harness's installer): kept out of the unit tier,
        // which starts nothing.
        test: {
          name: 'smoke',
          poolOptions: { forks: { isolate: true } },
          include: [
            'packages/*/test/**/*.smoke.spec.ts',
            'services/*/test/**/*.smoke.spec.ts',
            'test/**/*.smoke.spec.ts',
          ],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'packages/*/test/**/*.int.spec.ts',
            'services/*/test/**/*.int.spec.ts',
            'test/**/*.int.spec.ts',
          ],
          env: COMPILED_PROCESSES,
          globalSetup: SERVER_SETUP,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The processes as a user starts them, over their public interfaces.
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e.spec.ts'],
          env: COMPILED_PROCESSES,
          globalSetup: SERVER_SETUP,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        // Fault injection (nothing is lost when a server fails): each scenario starts private server
        // instances on free ports for anything it stops, kills or pauses; the shared servers are never
        // disturbed.
        // Own groups, after the rest, one file at a time: their private JVMs and floods would skew the
        // latency-bound tests of the other projects, and several of them bound a latency themselves. Run
        // beside the cluster scenarios, two files at a time, they took longer than one after the other
        // (each file 1.6 times as long, the pair 742 s against 670 s: a node starting, an ingest and a
        // load need both cores).
        test: {
          name: 'faults',
          poolOptions: { forks: { singleFork: true } },
          sequence: { groupOrder: 1 },
          include: ['test/faults/**/*.fault.spec.ts'],
          env: COMPILED_PROCESSES,
          globalSetup: SERVER_SETUP,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        // Fuzz and abuse (docs/security.md): bounded in count and time, loopback only; one file at a time:
        // the flood compares latencies, which nothing else may skew.
        test: {
          name: 'security',
          // A graph per file: the flood compares the tail latency of an API served in this process, whose
          // heap the earlier files' modules would share (shared, its p99 ratio once came out 2.02 against
          // the 2x bound, 1.38 on the last run with a graph per file).
          poolOptions: { forks: { singleFork: true, isolate: true } },
          sequence: { groupOrder: 2 },
          include: ['test/security/**/*.security.spec.ts'],
          env: COMPILED_PROCESSES,
          globalSetup: SERVER_SETUP,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        // Clustered engines (Redis Cluster and Sentinel, PostgreSQL primary + standby behind PgBouncer,
        // three Elasticsearch nodes, several workers): private instances on free ports only, after the rest.
        test: {
          name: 'cluster',
          poolOptions: { forks: { singleFork: true } },
          sequence: { groupOrder: 3 },
          include: ['test/cluster/**/*.cluster.spec.ts'],
          env: COMPILED_PROCESSES,
          globalSetup: SERVER_SETUP,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});

// Starts bench/scale-store-thread.ts in a worker thread: TypeScript through tsx, whatever ran the parent
// (tsx, vitest).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);

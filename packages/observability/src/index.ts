export {
  checkReadiness,
  markStopping,
  postgresCheck,
  redisCheck,
  type DependencyStatus,
  type ReadinessReport,
} from './readiness.js';
export { installHttpMetrics, type HttpMetrics } from './metrics.js';
export { warnAboutRedisDurability } from './redis-settings.js';
export { startProcessOperations } from './process-operations.js';
export { startTracing, stopTracing, tracingConfigured, tracingIsOn, type TracingOptions } from './tracing.js';
export {
  peakResidentMegabytes,
  processMemoryKilobytes,
  statusKilobytes,
  type StatusMemoryField,
} from './resident-memory.js';

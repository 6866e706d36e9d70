export {
  checkReadiness,
  elasticsearchCheck,
  postgresCheck,
  redisCheck,
  type DependencyCheck,
  type DependencyStatus,
  type ReadinessReport,
} from './readiness.js';
export { registerProbes, notReadyProblem, verboseReport, type ReadinessSource } from './probes.js';
export { createHttpMetrics, createMetricsRegistry, installHttpMetrics, type HttpMetrics } from './metrics.js';
export {
  DASHBOARD_PATH,
  sameSecret,
  startOperatorListener,
  type OperatorListenerOptions,
} from './operator-listener.js';
export {
  readRedisDurabilitySettings,
  redisDurabilityWarnings,
  warnAboutRedisDurability,
  type RedisDurabilitySettings,
} from './redis-settings.js';
export {
  startProcessOperations,
  type ProcessOperations,
  type ProcessOperationsOptions,
} from './process-operations.js';

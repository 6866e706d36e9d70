export { withAdmin, withDatabase } from './admin.js';
export { createTestDatabase, createEmptyDatabase, type TestDatabase } from './test-database.js';
export { createTestRedis, deleteKeysWithPrefix, type TestRedis } from './test-redis.js';
export { createTestQueue, type TestQueue } from './test-queue.js';
export { createTestSearch, type TestSearch } from './test-search.js';
export {
  startProcess,
  nodeArguments,
  directoryArguments,
  processModeOf,
  eventually,
  freePort,
  REPOSITORY_ROOT,
  runToExit,
  type FinishedProcess,
  type RunningProcess,
} from './processes.js';
export { FIXTURE_CRAWL_TIME, SITE_ORIGIN, indexPlaces, placeState } from './place-fixtures.js';
export { createQuietWebhookEndpoint } from './webhook-fixtures.js';
export { crawled, lifecycle, published } from './raw-events.js';
export { HIDDEN_IDS, SORTED_DOCTOR_KEYS, testDataset } from './directory-dataset.js';
export { projectRawEvents } from './expected-projection.js';
export {
  assertConverged,
  checkConvergence,
  waitForConvergence,
  assertNoServerErrors,
  createResponseTally,
  recordResponse,
  startLoad,
  type ConvergenceInput,
  type ResponseTally,
} from './fault-checks.js';
export { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
export { scrapeMetrics } from './metrics-scrape.js';
export {
  postgresCommand,
  startPrivateElasticsearch,
  startPrivatePostgres,
  startPrivateRedis,
  startPrivateStandby,
  startPgBouncer,
  type PrivatePgBouncer,
  type PrivateStandby,
  type PrivateElasticsearch,
  type PrivatePostgres,
  type PrivateRedis,
} from './private-servers/index.js';
export { UNLIMITED_QUOTAS } from './quotas.js';
export { expectGolden } from './golden.js';
export { processEnvironment } from './process-environment.js';
export { startPrivateRedisCluster, type PrivateRedisCluster } from './private-servers/redis-cluster.js';
export { fastestOfThreeMs } from './timing.js';
export { startPrivateRedisSentinel, type PrivateRedisSentinel } from './private-servers/redis-sentinel.js';
export { createNetworkNamespace, type NetworkNamespace } from './network-namespace.js';
export {
  startPartitionedReplication,
  type PartitionedReplication,
} from './private-servers/partitioned-standby.js';
export { storeServedPlaces, waitForFeedFence, type ServingStores } from './served-places.js';
export { createTestSandbox, testDatasets, type TestSandbox } from './test-datasets.js';
export { startDroppingDnsServer, type DroppingDnsServer } from './dropping-dns-server.js';
export { startMailReceiver, type MailReceiver, type ReceivedMail } from './mail-receiver.js';

export { postgresCommand, startPrivatePostgres, type PrivatePostgres } from './postgres.js';
export {
  startPrivateElasticsearch,
  type PrivateElasticsearch,
  type PrivateElasticsearchNode,
} from './elasticsearch.js';
export { startPrivateRedis, type PrivateRedis } from './redis.js';
export { startPrivateStandby, type PrivateStandby } from './postgres-standby.js';
export { pgBouncerBinary, startPgBouncer, type PrivatePgBouncer } from './pgbouncer.js';

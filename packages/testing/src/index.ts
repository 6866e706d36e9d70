export { uniqueName } from './names.js';
export { createTestDatabase, createEmptyDatabase, type TestDatabase } from './test-database.js';
export { createTestRedis, type TestRedis } from './test-redis.js';
export { createTestSearch, type TestSearch } from './test-search.js';

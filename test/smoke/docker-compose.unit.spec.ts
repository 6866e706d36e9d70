import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

// No Docker engine runs here, so the compose file is at least kept parseable and consistent with the
// versions the local scripts use.
type ComposeFile = { services: Record<string, { image?: string; command?: string[] }> };

const compose = parse(
  readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8'),
) as ComposeFile;
const servicesScript = readFileSync(new URL('../../infra/local/services.sh', import.meta.url), 'utf8');

describe('docker-compose.yml', () => {
  it('declares the three backing services', () => {
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'elasticsearch']),
    );
  });

  it('runs the same Elasticsearch version as services.sh', () => {
    const localVersion = /ES_VERSION="([^"]+)"/.exec(servicesScript)?.[1];
    expect(localVersion).toBeDefined();
    expect(compose.services.elasticsearch?.image).toBe(
      `docker.elastic.co/elasticsearch/elasticsearch:${localVersion}`,
    );
  });

  it('keeps Redis durable and never evicting queued jobs', () => {
    expect(compose.services.redis?.command).toEqual(
      expect.arrayContaining(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']),
    );
  });
});

import { Client } from '@elastic/elasticsearch';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestSearch } from '@directory/testing';
import { InvalidCursorError, SearchUnavailableError, createDirectory } from '../src/index.js';

const SITE = 'https://www.doctor-directory.example';
const SECRET = 'directory-test-secret-0123456789abcdef';

describe('directory service (the query code shared by the API and MCP)', () => {
  const search = createTestSearch('directory');
  afterAll(() => search.cleanup());

  it('treats a missing alias (fresh deployment) as an empty directory, not an outage', async () => {
    const directory = createDirectory({
      client: search.client,
      alias: `${search.prefix}_missing`,
      siteOrigin: SITE,
      cursorSecret: SECRET,
    });
    expect(await directory.searchDoctors({ country: 'de', limit: 10 })).toEqual({
      doctors: [],
      page: { count: 0, hasMore: false, nextCursor: null },
    });
    expect(await directory.getDoctor('some-id')).toEqual({ status: 'not-found' });
  });

  it('raises SearchUnavailableError when Elasticsearch cannot be reached', async () => {
    const dead = new Client({ node: 'http://127.0.0.1:9', requestTimeout: 500, maxRetries: 0 });
    const directory = createDirectory({
      client: dead,
      alias: 'doctors',
      siteOrigin: SITE,
      cursorSecret: SECRET,
    });
    await expect(directory.searchDoctors({ country: 'de', limit: 10 })).rejects.toBeInstanceOf(
      SearchUnavailableError,
    );
    await expect(directory.getDoctor('some-id')).rejects.toBeInstanceOf(SearchUnavailableError);
    // Invalid input is answered without asking the cluster at all.
    expect(await directory.getDoctor('not valid!')).toMatchObject({ status: 'invalid' });
    expect(await directory.getDoctor(`${SITE}/en/about`)).toMatchObject({ status: 'invalid' });
    await expect(
      directory.searchDoctors({ country: 'de', limit: 10, cursor: 'bogus' }),
    ).rejects.toBeInstanceOf(InvalidCursorError);
    await dead.close();
  });
});

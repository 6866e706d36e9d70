import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_VERSION } from '../../packages/client/src/transport.js';
import { OPENAPI_VERSION } from '../../services/api/src/plugins/openapi.plugin.js';
import { SERVER_INFO } from '../../services/mcp/src/tools/tool-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const versionOf = (packageJson: string) => (JSON.parse(read(packageJson)) as { version: string }).version;

/** The newest released version the changelog lists (the first `## [x.y.z]` heading). */
function latestChangelogVersion(changelog: string): string | undefined {
  return /^## \[(\d+\.\d+\.\d+)\]/m.exec(changelog)?.[1];
}

describe('one version everywhere', () => {
  // The release is the root package's version (`directory --version` prints it); everything that
  // states a version to the outside must say the same.
  const release = versionOf('package.json');

  it('is the version of the OpenAPI document, the MCP server, the client and the changelog', () => {
    expect(release).toMatch(/^\d+\.\d+\.\d+$/);
    expect({
      openapi: OPENAPI_VERSION,
      mcp: SERVER_INFO.version,
      clientConstant: CLIENT_VERSION,
      clientPackage: versionOf('packages/client/package.json'),
      changelog: latestChangelogVersion(read('CHANGELOG.md')),
    }).toEqual({
      openapi: release,
      mcp: release,
      clientConstant: release,
      clientPackage: release,
      changelog: release,
    });
  });

  it('reads the latest release from the changelog, past the Unreleased section', () => {
    expect(
      latestChangelogVersion('## [Unreleased]\n\n### Added\n\n## [2.0.1] - 2027-01-01\n## [2.0.0]'),
    ).toBe('2.0.1');
    expect(latestChangelogVersion('## [Unreleased]\n')).toBeUndefined();
  });
});

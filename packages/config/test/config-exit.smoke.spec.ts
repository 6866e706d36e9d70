import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// The configuration's exit in a process of its own: what an operator sees when a variable is wrong.
describe('loadConfigOrExit', () => {
  it('prints every bad variable without a stack trace and exits with code 2', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', '-e', "import('@directory/config').then((m) => m.loadConfigOrExit())"],
      { env: { ...process.env, API_PORT: 'abc', RATE_LIMIT_MAX: '-1' }, encoding: 'utf8' },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Invalid environment:\n {2}API_PORT: .*\n {2}RATE_LIMIT_MAX: /);
    expect(result.stderr).not.toMatch(/at .*config\.ts/);
  });
});

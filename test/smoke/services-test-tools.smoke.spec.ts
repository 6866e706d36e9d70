import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `infra/local/services.sh up` installs the Debian packages the tests need (PgBouncer, Chromium) when they
// are missing and the user may, and otherwise stops naming the command to run. The script is sourced (it
// then defines its functions and runs nothing) and the machine is stood in for by shell functions: which
// programs are present, the user id, sudo and apt-get, so no case here installs anything.
const SCRIPT = fileURLToPath(new URL('../../infra/local/services.sh', import.meta.url));

function inScript(commands: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('bash', ['-c', `source "$1"; ${commands}`, 'spec', SCRIPT], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * A machine where PRESENT (space-separated) are installed, the user has UID and sudo answers SUDO; every
 * apt-get and sudo call is recorded and printed to stdout as the shell exits. The recorded apt-get
 * installs nothing, so a package it was asked for is still missing afterwards.
 */
function machine(present: string, uid: number, sudo: boolean): string {
  return [
    `STATE_DIR=$(mktemp -d)`,
    `trap 'cat "$STATE_DIR/calls" 2>/dev/null || true; rm -rf "$STATE_DIR"' EXIT`,
    `package_present() { [[ " ${present} " == *" $1 "* ]]; }`,
    `id() { echo ${uid}; }`,
    `sudo() { echo "sudo $*" >>"$STATE_DIR/calls"; ${sudo ? 'return 0' : 'return 1'}; }`,
    `apt-get() { echo "DEBIAN_FRONTEND=$DEBIAN_FRONTEND apt-get $*" >>"$STATE_DIR/calls"; }`,
  ].join('\n');
}

const calls = (stdout: string) => stdout.split('\n').filter((line) => /^(?:sudo|DEBIAN)/.test(line));

describe('services.sh: the test tools', () => {
  it('decides: nothing missing, root, passwordless sudo, or refuse', () => {
    const plan = (missing: string, uid: number, sudo: string, apt: string) =>
      inScript(`install_plan "${missing}" ${uid} ${sudo} ${apt}`).stdout.trim();
    expect(plan('', 1000, 'no', 'no')).toBe('none');
    expect(plan('pgbouncer chromium', 0, 'no', 'yes')).toBe('root');
    expect(plan('chromium', 1000, 'yes', 'yes')).toBe('sudo');
    expect(plan('pgbouncer', 1000, 'no', 'yes')).toBe('refuse');
    expect(plan('pgbouncer', 0, 'no', 'no')).toBe('refuse');
  });

  it('makes no apt-get or sudo call when both are installed', () => {
    const run = inScript(`${machine('pgbouncer chromium', 1000, false)}\ntest_tools_up; echo done`);
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('done');
    expect(run.stderr).toBe('');
  });

  it('stops a user who cannot install them, naming the exact command', () => {
    const run = inScript(`${machine('', 1000, false)}\ntest_tools_up; echo not reached`);
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('not reached');
    expect(calls(run.stdout)).toEqual(['sudo -n true']);
    expect(run.stderr).toContain('run `sudo apt-get install -y pgbouncer chromium`, then retry');
  });

  it('as root, installs only what is missing, updating the package lists once first', () => {
    // The recorded apt-get leaves chromium missing, so the run ends in the check after the install.
    const run = inScript(`${machine('pgbouncer', 0, false)}\ntest_tools_up`);
    expect(calls(run.stdout)).toEqual([
      'DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=300 update',
      'DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=300 install -y chromium',
    ]);
    expect(run.stderr).toContain('installing chromium with apt-get');
    expect(run.stderr).toContain('apt-get installed chromium but its program is not where the tests look');
    expect(run.status).toBe(1);
  });

  it('with passwordless sudo, installs through sudo', () => {
    const run = inScript(`${machine('', 1000, true)}\ntest_tools_up`);
    expect(calls(run.stdout)).toEqual([
      'sudo -n true',
      'sudo -n DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=300 update',
      'sudo -n DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=300 install -y pgbouncer chromium',
    ]);
  });
});

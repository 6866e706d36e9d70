import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';

/**
 * A Linux network namespace of a fault test's own, joined to the root namespace by a veth pair that
 * carries a private /30 existing only between its two ends (10.201.N.1 on the root side, 10.201.N.2
 * inside). A server started with `wrap` listens on `namespaceAddress` and reaches the root namespace only
 * through the pair, so `cut` (both ends of the pair down) partitions it from everything in the root
 * namespace, and `heal` joins it again. Needs root, `ip` (iproute2) and `ip netns`.
 */
export type NetworkNamespace = {
  name: string;
  /** The root side's address (10.201.N.1). */
  hostAddress: string;
  /** The namespace side's address (10.201.N.2). */
  namespaceAddress: string;
  /** The root side's veth device. */
  hostDevice: string;
  /** The command and arguments that run `command` inside the namespace (`ip netns exec`). */
  wrap: (command: string, args: string[]) => [string, string[]];
  /** Takes both ends of the veth pair down: nothing passes between the namespaces until `heal`. */
  cut: () => void;
  /** Brings both ends up again. */
  heal: () => void;
  /** Deletes the veth pair and the namespace (idempotent; also run when the test process exits). */
  destroy: () => void;
};

function ip(args: string[]): void {
  execFileSync('ip', args, { stdio: 'pipe', timeout: 10_000 });
}

function ipQuietly(args: string[]): void {
  try {
    ip(args);
  } catch {
    // Already gone.
  }
}

/** A 10.201.N.0/30 no interface of the root namespace uses yet. */
function freeSubnet(): number {
  const used = execFileSync('ip', ['-o', '-4', 'addr', 'show'], { stdio: 'pipe' }).toString();
  for (let attempt = 0; attempt < 50; attempt++) {
    const octet = randomInt(1, 255);
    if (!used.includes(` 10.201.${octet}.`)) return octet;
  }
  throw new Error('no free 10.201.N.0/30 for a test network namespace');
}

export function createNetworkNamespace(label: string): NetworkNamespace {
  const suffix = randomBytes(3).toString('hex');
  const name = `dd-${label}-${suffix}`;
  // Interface names have at most 15 characters.
  const hostDevice = `ddv${suffix}h`;
  const namespaceDevice = `ddv${suffix}n`;
  const octet = freeSubnet();
  const hostAddress = `10.201.${octet}.1`;
  const namespaceAddress = `10.201.${octet}.2`;

  let destroyed = false;
  const destroy = () => {
    if (destroyed) return;
    destroyed = true;
    process.off('exit', destroy);
    // Deleting one end deletes the pair; namespace deletion alone frees the pair only asynchronously.
    ipQuietly(['link', 'del', hostDevice]);
    ipQuietly(['netns', 'del', name]);
  };
  process.once('exit', destroy);

  try {
    ip(['netns', 'add', name]);
    ip(['link', 'add', hostDevice, 'type', 'veth', 'peer', 'name', namespaceDevice]);
    ip(['link', 'set', namespaceDevice, 'netns', name]);
    ip(['addr', 'add', `${hostAddress}/30`, 'dev', hostDevice]);
    ip(['-n', name, 'addr', 'add', `${namespaceAddress}/30`, 'dev', namespaceDevice]);
    ip(['link', 'set', hostDevice, 'up']);
    ip(['-n', name, 'link', 'set', namespaceDevice, 'up']);
    ip(['-n', name, 'link', 'set', 'lo', 'up']);
  } catch (error) {
    destroy();
    throw error;
  }

  return {
    name,
    hostAddress,
    namespaceAddress,
    hostDevice,
    wrap: (command, args) => ['ip', ['netns', 'exec', name, command, ...args]],
    cut: () => {
      ip(['link', 'set', hostDevice, 'down']);
      ip(['-n', name, 'link', 'set', namespaceDevice, 'down']);
    },
    heal: () => {
      ip(['link', 'set', hostDevice, 'up']);
      ip(['-n', name, 'link', 'set', namespaceDevice, 'up']);
    },
    destroy,
  };
}

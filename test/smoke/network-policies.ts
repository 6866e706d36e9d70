import { isIPv4 } from 'node:net';
import type { KubernetesObject } from './kustomize.js';

/**
 * Whether NetworkPolicies let one connection through, as the Kubernetes API defines them (no cluster on
 * the development machines): a pod selected by a policy of a direction is isolated in that direction and
 * gets only what some rule of those policies allows; policies add up. Peers are IPv4 addresses (ipBlock)
 * or pods (namespace and pod labels); ports are TCP or UDP, with `endPort` ranges.
 */

type Labels = Record<string, string>;
type Selector = { matchLabels?: Labels };
type PolicyPeer = {
  ipBlock?: { cidr: string; except?: string[] };
  namespaceSelector?: Selector;
  podSelector?: Selector;
};
type PolicyPort = { protocol?: string; port?: number; endPort?: number };
type Rule = { to?: PolicyPeer[]; from?: PolicyPeer[]; ports?: PolicyPort[] };
type PolicySpec = {
  podSelector: Selector;
  policyTypes?: Array<'Ingress' | 'Egress'>;
  ingress?: Rule[];
  egress?: Rule[];
};

/** The other end: an address outside the cluster, or a pod (its namespace's labels and its own). */
export type Peer = { ip: string } | { namespaceLabels: Labels; podLabels: Labels };
export type Connection = { peer: Peer; port: number; protocol?: 'TCP' | 'UDP' };

export function specOf(policy: KubernetesObject): PolicySpec {
  return policy.spec as PolicySpec;
}

function selects(selector: Selector | undefined, labels: Labels): boolean {
  return Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
}

function ipv4Number(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

/** Whether an IPv4 address is in a CIDR block (an IPv6 block holds no IPv4 address). */
export function inCidr(address: string, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  if (!isIPv4(base) || !isIPv4(address)) return false;
  const size = 2 ** (32 - Number(bits));
  return Math.floor(ipv4Number(address) / size) === Math.floor(ipv4Number(base) / size);
}

function peerMatches(peer: PolicyPeer, other: Peer, ownNamespace: Labels): boolean {
  if ('ip' in other) {
    const block = peer.ipBlock;
    return (
      block !== undefined &&
      inCidr(other.ip, block.cidr) &&
      !(block.except ?? []).some((except) => inCidr(other.ip, except))
    );
  }
  if (peer.ipBlock !== undefined) return false;
  // A podSelector alone means pods of the policy's own namespace.
  const namespaceMatches =
    peer.namespaceSelector === undefined
      ? selects({ matchLabels: ownNamespace }, other.namespaceLabels)
      : selects(peer.namespaceSelector, other.namespaceLabels);
  return namespaceMatches && selects(peer.podSelector, other.podLabels);
}

function portMatches(ports: PolicyPort[] | undefined, connection: Connection): boolean {
  if (ports === undefined || ports.length === 0) return true;
  const protocol = connection.protocol ?? 'TCP';
  return ports.some(
    (port) =>
      (port.protocol ?? 'TCP') === protocol &&
      (port.port === undefined ||
        (connection.port >= port.port && connection.port <= (port.endPort ?? port.port))),
  );
}

/** Whether a pod with these labels may open (egress) or accept (ingress) the connection. */
export function allows(
  policies: KubernetesObject[],
  direction: 'Ingress' | 'Egress',
  podLabels: Labels,
  connection: Connection,
  ownNamespace: Labels = { 'kubernetes.io/metadata.name': 'doctor-directory' },
): boolean {
  const applying = policies
    .map(specOf)
    .filter((spec) => selects(spec.podSelector, podLabels))
    .filter((spec) => (spec.policyTypes ?? ['Ingress']).includes(direction));
  if (applying.length === 0) return true; // not isolated
  return applying.some((spec) =>
    (direction === 'Egress' ? (spec.egress ?? []) : (spec.ingress ?? [])).some((rule) => {
      const peers = direction === 'Egress' ? rule.to : rule.from;
      const peerAllowed =
        peers === undefined ||
        peers.length === 0 ||
        peers.some((peer) => peerMatches(peer, connection.peer, ownNamespace));
      return peerAllowed && portMatches(rule.ports, connection);
    }),
  );
}

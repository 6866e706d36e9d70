import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

/**
 * Renders a kustomization the way `kubectl kustomize` does, for the few features deploy/kubernetes uses
 * (no kustomize binary on the development machines): resources (files and directories), namespace,
 * images, replicas and strategic-merge patches by kind and name. Any other field is refused, so a
 * kustomization that outgrows this renderer fails its spec instead of being rendered wrongly.
 */

export type KubernetesObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
};

type Kustomization = {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
  replicas?: Array<{ name: string; count: number }>;
  patches?: Array<{ path: string }>;
};

const SUPPORTED_FIELDS = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'images',
  'replicas',
  'patches',
]);
// Cluster-scoped kinds the manifests use: kustomize leaves their namespace unset.
const CLUSTER_SCOPED_KINDS = new Set(['Namespace']);

export function readYamlDocuments(path: string): KubernetesObject[] {
  return parseAllDocuments(readFileSync(path, 'utf8')).map((document) => {
    if (document.errors.length > 0) throw new Error(`${path}: ${document.errors[0]?.message}`);
    return document.toJS() as KubernetesObject;
  });
}

export function renderKustomization(directory: string): KubernetesObject[] {
  const [kustomization] = readYamlDocuments(join(directory, 'kustomization.yaml')) as unknown as [
    Kustomization,
  ];
  const unsupported = Object.keys(kustomization).filter((field) => !SUPPORTED_FIELDS.has(field));
  if (unsupported.length > 0) {
    throw new Error(
      `${directory}/kustomization.yaml: this renderer does not support ${unsupported.join(', ')}`,
    );
  }

  const objects = (kustomization.resources ?? []).flatMap((resource) => {
    const path = join(directory, resource);
    return statSync(path).isDirectory() ? renderKustomization(path) : readYamlDocuments(path);
  });
  for (const { path } of kustomization.patches ?? []) {
    for (const patch of readYamlDocuments(join(directory, path))) {
      const target = objects.find(
        (object) => object.kind === patch.kind && object.metadata.name === patch.metadata.name,
      );
      if (target === undefined) throw new Error(`${path}: no ${patch.kind} ${patch.metadata.name} to patch`);
      objects[objects.indexOf(target)] = strategicMerge(target, patch) as KubernetesObject;
    }
  }
  for (const { name, count } of kustomization.replicas ?? []) {
    const target = objects.find((object) => object.kind === 'Deployment' && object.metadata.name === name);
    if (target === undefined) throw new Error(`replicas: no Deployment ${name}`);
    (target.spec as Record<string, unknown>).replicas = count;
  }
  for (const image of kustomization.images ?? []) {
    for (const container of objects.flatMap(containersOf)) {
      if (container.image === image.name || container.image.startsWith(`${image.name}:`)) {
        const [, tag] = container.image.split(':');
        container.image = `${image.newName ?? image.name}:${image.newTag ?? tag ?? 'latest'}`;
      }
    }
  }
  if (kustomization.namespace !== undefined) {
    for (const object of objects) {
      if (!CLUSTER_SCOPED_KINDS.has(object.kind)) object.metadata.namespace = kustomization.namespace;
    }
  }
  return objects;
}

export type Container = { name: string; image: string; [field: string]: unknown };

/** The containers of a Deployment's or a Job's pod template. */
export function containersOf(object: KubernetesObject): Container[] {
  if (object.kind !== 'Deployment' && object.kind !== 'Job') return [];
  const spec = object.spec as { template: { spec: { containers: Container[] } } };
  return spec.template.spec.containers;
}

/** Maps merge key by key; lists of named items (containers, ports, volumes) by name; other lists are replaced. */
function strategicMerge(base: unknown, patch: unknown): unknown {
  if (Array.isArray(base) && Array.isArray(patch) && patch.every(isNamed) && base.every(isNamed)) {
    const merged = base.map((item) => {
      const patchItem = patch.find((candidate) => candidate.name === item.name);
      return patchItem === undefined ? item : strategicMerge(item, patchItem);
    });
    return [...merged, ...patch.filter((item) => !base.some((candidate) => candidate.name === item.name))];
  }
  if (isPlainObject(base) && isPlainObject(patch)) {
    const merged: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(patch)) merged[key] = strategicMerge(base[key], value);
    return merged;
  }
  return patch;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNamed(value: unknown): value is { name: string } {
  return isPlainObject(value) && typeof value.name === 'string';
}

export const KUBERNETES_DIRECTORY = fileURLToPath(new URL('../../deploy/kubernetes/', import.meta.url));

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, type Config } from '@directory/config';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import {
  KUBERNETES_DIRECTORY,
  containersOf,
  readYamlDocuments,
  renderKustomization,
  type Container,
  type KubernetesObject,
} from './kustomize.js';

// No cluster and no kustomize binary on the development machines: the manifests are rendered here (as
// `kubectl kustomize` does for the features they use), every object is checked against the Kubernetes
// API schemas (kubernetes-models), and the settings they give the processes against the config schema.

const MODELS: Record<string, { validate(object: unknown): void }> = {
  'v1/ConfigMap': { validate: (object) => new ConfigMap(object as ConfigMap).validate() },
  'v1/Secret': { validate: (object) => new Secret(object as Secret).validate() },
  'v1/Service': { validate: (object) => new Service(object as Service).validate() },
  'v1/Namespace': { validate: (object) => new Namespace(object as Namespace).validate() },
  'apps/v1/Deployment': { validate: (object) => new Deployment(object as Deployment).validate() },
  'batch/v1/Job': { validate: (object) => new Job(object as Job).validate() },
  'policy/v1/PodDisruptionBudget': {
    validate: (object) => new PodDisruptionBudget(object as PodDisruptionBudget).validate(),
  },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    validate: (object) => new HorizontalPodAutoscaler(object as HorizontalPodAutoscaler).validate(),
  },
};

const BASE = join(KUBERNETES_DIRECTORY, 'base');
const PRODUCTION = join(KUBERNETES_DIRECTORY, 'overlays/production');
const renderings = { base: renderKustomization(BASE), production: renderKustomization(PRODUCTION) };

/** What the config schema reads for each long-running process: its public port and its operator port. */
const PROCESSES = {
  api: { port: 'API_PORT', opsPort: 'API_OPS_PORT', service: true, autoscaledOn: 'Resource' },
  mcp: { port: 'MCP_PORT', opsPort: 'MCP_OPS_PORT', service: true, autoscaledOn: 'Resource' },
  console: { port: 'CONSOLE_PORT', opsPort: 'CONSOLE_OPS_PORT', service: true, autoscaledOn: undefined },
  worker: { port: undefined, opsPort: 'WORKER_OPS_PORT', service: false, autoscaledOn: 'External' },
} as const satisfies Record<
  string,
  {
    port: keyof Config | undefined;
    opsPort: keyof Config;
    service: boolean;
    autoscaledOn: 'Resource' | 'External' | undefined;
  }
>;

// Stand-ins for the Secret's placeholders: what an operator would put there.
const SECRET_VALUES: Record<string, string> = {
  DATABASE_URL: 'postgres://directory:password@postgres.example.internal:5432/doctor_directory',
  REDIS_URL: 'redis://:password@redis.example.internal:6379',
  CURSOR_SECRET: 'a-cursor-secret-of-thirty-two-characters-or-more',
  CONSOLE_SECRET: 'a-console-secret-of-thirty-two-characters-or-more',
  WEBHOOK_SECRET_KEY: 'a-webhook-secret-key-of-thirty-two-characters-or-more',
};

type PodSpec = {
  terminationGracePeriodSeconds?: number;
  enableServiceLinks?: boolean;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  volumes?: Array<{ name: string; emptyDir?: object }>;
  restartPolicy?: string;
};
type Probe = {
  httpGet?: { path: string; port: string | number };
  periodSeconds?: number;
  failureThreshold?: number;
};
type AppContainer = Container & {
  args?: string[];
  env?: Array<{ name: string; value?: string }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  ports?: Array<{ name: string; containerPort: number }>;
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
};

function find(objects: KubernetesObject[], kind: string, name: string): KubernetesObject {
  const object = objects.find((candidate) => candidate.kind === kind && candidate.metadata.name === name);
  if (object === undefined) throw new Error(`no ${kind} ${name}`);
  return object;
}

function podSpecOf(object: KubernetesObject): PodSpec {
  return (object.spec as { template: { spec: PodSpec } }).template.spec;
}

function onlyContainer(object: KubernetesObject): AppContainer {
  const containers = containersOf(object);
  expect(containers).toHaveLength(1);
  return containers[0] as AppContainer;
}

/** The environment every process gets: the ConfigMap and the Secret (placeholders as they are). */
function environmentOf(objects: KubernetesObject[]): Record<string, string> {
  const config = find(objects, 'ConfigMap', 'directory-config') as { data?: Record<string, string> };
  const secret = find(objects, 'Secret', 'directory-secrets') as { stringData?: Record<string, string> };
  return { ...config.data, ...secret.stringData };
}

function secretVariables(objects: KubernetesObject[]): string[] {
  const secret = find(objects, 'Secret', 'directory-secrets') as { stringData?: Record<string, string> };
  return Object.keys(secret.stringData ?? {});
}

function configWithSecrets(objects: KubernetesObject[]): Config {
  const environment = environmentOf(objects);
  for (const variable of secretVariables(objects)) environment[variable] = SECRET_VALUES[variable] ?? '';
  return loadConfig(environment);
}

function problemsOf(environment: Record<string, string>): string[] {
  try {
    loadConfig(environment);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((problem) => problem.variable);
  }
}

describe('deploy/kubernetes', () => {
  it('renders the production overlay from every file of the base and the overlay', () => {
    for (const directory of [BASE, PRODUCTION]) {
      const listed = readYamlDocuments(join(directory, 'kustomization.yaml'))[0] as unknown as {
        resources?: string[];
        patches?: Array<{ path: string }>;
      };
      const used = [...(listed.resources ?? []), ...(listed.patches ?? []).map((patch) => patch.path)];
      const files = readdirSync(directory).filter(
        (file) => file.endsWith('.yaml') && file !== 'kustomization.yaml',
      );
      expect(used).toEqual(expect.arrayContaining(files));
    }
    expect(renderings.production.map((object) => `${object.kind}/${object.metadata.name}`)).toEqual(
      expect.arrayContaining(renderings.base.map((object) => `${object.kind}/${object.metadata.name}`)),
    );
  });

  for (const [rendering, objects] of Object.entries(renderings)) {
    it(`${rendering}: every object is valid against the Kubernetes API schemas`, () => {
      for (const object of objects) {
        const model = MODELS[`${object.apiVersion}/${object.kind}`];
        expect(model, `${object.apiVersion} ${object.kind} has no model in this spec`).toBeDefined();
        expect(() => model?.validate(object), `${object.kind} ${object.metadata.name}`).not.toThrow();
      }
    });

    it(`${rendering}: sets only variables the config schema reads, each valid once the Secret is filled in`, () => {
      const environment = environmentOf(objects);
      const config = configWithSecrets(objects);
      expect(Object.keys(config)).toEqual(expect.arrayContaining(Object.keys(environment)));
      for (const workload of objects.filter((object) => containersOf(object).length > 0)) {
        const container = onlyContainer(workload);
        // Outside the ConfigMap only Node's own options (the worker's heap flag), never configuration.
        expect(
          (container.env ?? []).map((variable) => variable.name).filter((name) => name !== 'NODE_OPTIONS'),
          `${workload.metadata.name} sets variables outside the ConfigMap`,
        ).toEqual([]);
        expect(container.envFrom).toEqual([
          { configMapRef: { name: 'directory-config' } },
          { secretRef: { name: 'directory-secrets' } },
        ]);
      }
    });

    it(`${rendering}: sets every variable production requires, and the worker's pool fits its concurrency`, () => {
      const requiredInProduction = problemsOf({ NODE_ENV: 'production' });
      expect(requiredInProduction).toEqual(
        expect.arrayContaining(['CURSOR_SECRET', 'CONSOLE_SECRET', 'WEBHOOK_SECRET_KEY']),
      );
      expect(secretVariables(objects)).toEqual(expect.arrayContaining(requiredInProduction));
      const config = configWithSecrets(objects);
      expect(config.NODE_ENV).toBe('production');
      expect(config.DATABASE_POOL_MAX).toBeGreaterThanOrEqual(config.WORKER_CONCURRENCY + 2);
    });

    it(`${rendering}: the secrets' placeholders stop every process, naming each one`, () => {
      expect(problemsOf(environmentOf(objects)).sort()).toEqual([
        'CONSOLE_SECRET',
        'CURSOR_SECRET',
        'WEBHOOK_SECRET_KEY',
      ]);
    });

    it(`${rendering}: a hardened Deployment per process on its operator port, with a grace period past the drain`, () => {
      const config = configWithSecrets(objects);
      for (const [process, settings] of Object.entries(PROCESSES)) {
        const deployment = find(objects, 'Deployment', `directory-${process}`);
        const pod = podSpecOf(deployment);
        const container = onlyContainer(deployment);
        expect(container.args).toEqual([process]);
        expect(container.image).toMatch(/^(?:[\w./-]+\/)?doctor-directory(?::[\w.-]+)?$/);

        const portNamed = (name: string) =>
          container.ports?.find((port) => port.name === name)?.containerPort;
        expect(portNamed('ops')).toBe(config[settings.opsPort]);
        if (settings.port !== undefined) expect(portNamed('http')).toBe(config[settings.port]);
        expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'ops' });
        // Whoever polls /readyz notices a drain before it ends (docs/operations.md, "Shutdown and draining").
        const readiness = container.readinessProbe ?? {};
        expect((readiness.periodSeconds ?? 10) * (readiness.failureThreshold ?? 3) * 1000).toBeLessThan(
          config.SHUTDOWN_DRAIN_MS,
        );
        expect(container.livenessProbe?.httpGet).toEqual({ path: '/livez', port: 'ops' });
        expect(container.startupProbe?.httpGet).toEqual({ path: '/livez', port: 'ops' });

        expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
        expect(Object.keys(container.resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
        expect((pod.terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(
          config.SHUTDOWN_DRAIN_MS + config.SHUTDOWN_TIMEOUT_MS,
        );
        // A Service named api would set API_PORT=tcp://… in every pod of the namespace.
        expect(pod.enableServiceLinks).toBe(false);
        expectHardened(pod, container);
      }
    });

    it(`${rendering}: Services for the public ports only, a disruption budget per process`, () => {
      for (const [process, settings] of Object.entries(PROCESSES)) {
        const deployment = find(objects, 'Deployment', `directory-${process}`);
        const podLabels = (deployment.spec as { template: { metadata: { labels: Record<string, string> } } })
          .template.metadata.labels;
        const services = objects.filter(
          (object) => object.kind === 'Service' && object.metadata.name === `directory-${process}`,
        );
        expect(services).toHaveLength(settings.service ? 1 : 0);
        for (const service of services) {
          const spec = service.spec as {
            selector: Record<string, string>;
            ports: Array<{ targetPort: string }>;
          };
          expect(podLabels).toMatchObject(spec.selector);
          expect(spec.ports.map((port) => port.targetPort)).toEqual(['http']);
        }
        const budget = find(objects, 'PodDisruptionBudget', `directory-${process}`);
        expect(podLabels).toMatchObject(
          (budget.spec as { selector: { matchLabels: object } }).selector.matchLabels,
        );
      }
    });

    it(`${rendering}: autoscales the API and MCP on CPU and the workers on the queue depth they export`, () => {
      for (const [process, settings] of Object.entries(PROCESSES)) {
        const deployment = find(objects, 'Deployment', `directory-${process}`);
        const autoscalers = objects.filter(
          (object) =>
            object.kind === 'HorizontalPodAutoscaler' && object.metadata.name === `directory-${process}`,
        );
        expect(autoscalers).toHaveLength(settings.autoscaledOn === undefined ? 0 : 1);
        for (const autoscaler of autoscalers) {
          const spec = autoscaler.spec as {
            scaleTargetRef: { kind: string; name: string };
            metrics: Array<{
              type: string;
              resource?: { name: string };
              external?: { metric: { name: string } };
            }>;
          };
          expect(spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: deployment.metadata.name });
          expect(spec.metrics.map((metric) => metric.type)).toEqual([settings.autoscaledOn]);
          // The autoscaler owns the count: a replicas field would reset it at every apply.
          expect((deployment.spec as { replicas?: number }).replicas).toBeUndefined();
          if (settings.autoscaledOn === 'Resource') expect(spec.metrics[0]?.resource?.name).toBe('cpu');
          if (settings.autoscaledOn === 'External') {
            const metric = spec.metrics[0]?.external?.metric.name ?? '';
            const workerMetrics = readFileSync(
              new URL('../../services/worker/src/ingest-metrics.ts', import.meta.url),
              'utf8',
            );
            expect(workerMetrics).toContain(`name: '${metric}'`);
          }
        }
      }
    });

    it(`${rendering}: migrates with a one-shot Job`, () => {
      const job = find(objects, 'Job', 'directory-migrate');
      const pod = podSpecOf(job);
      const container = onlyContainer(job);
      expect(container.args).toEqual(['migrate']);
      expect(pod.restartPolicy).toBe('Never');
      expect(pod.enableServiceLinks).toBe(false);
      expectHardened(pod, container);
    });
  }

  it('production: one namespace, the image from a registry at a fixed tag', () => {
    const namespaces = renderings.production.filter((object) => object.kind === 'Namespace');
    expect(namespaces).toHaveLength(1);
    const namespace = namespaces[0]?.metadata.name;
    for (const object of renderings.production.filter((candidate) => candidate.kind !== 'Namespace')) {
      expect(object.metadata.namespace, `${object.kind} ${object.metadata.name}`).toBe(namespace);
    }
    for (const container of renderings.production.flatMap(containersOf)) {
      expect(container.image).toMatch(/^[\w.-]+\/[\w./-]*doctor-directory:[\w.-]+$/);
      expect(container.image).not.toMatch(/:latest$/);
    }
  });
});

function expectHardened(pod: PodSpec, container: AppContainer): void {
  expect(pod.securityContext?.runAsNonRoot).toBe(true);
  expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
  expect(container.securityContext).toMatchObject({
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
  });
  // A read-only root file system: /tmp (ingest's spool) is the one writable place.
  const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
  expect(pod.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir).toBeDefined();
}

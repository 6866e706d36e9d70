import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, consoleMailSettings, loadConfig, type Config } from '@directory/config';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
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
import { allows, inCidr, specOf, type Connection } from './network-policies.js';

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
  'networking.k8s.io/v1/NetworkPolicy': {
    validate: (object) => new NetworkPolicy(object as NetworkPolicy).validate(),
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
  SMTP_URL: 'smtp://console:password@smtp.example.internal:587',
};
/** The owner's URL, in a Secret of its own that only the migrate Job reads. */
const MIGRATION_SECRET = 'directory-migration-secrets';

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

function environmentWithSecrets(objects: KubernetesObject[]): Record<string, string> {
  const environment = environmentOf(objects);
  for (const variable of secretVariables(objects)) environment[variable] = SECRET_VALUES[variable] ?? '';
  return environment;
}

function configWithSecrets(objects: KubernetesObject[]): Config {
  return loadConfig(environmentWithSecrets(objects));
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
        // The owner's connection reaches the migrate Job only: the services run as the app role.
        const migrates = workload.kind === 'Job';
        expect(container.envFrom).toEqual([
          { configMapRef: { name: 'directory-config' } },
          { secretRef: { name: 'directory-secrets' } },
          ...(migrates ? [{ secretRef: { name: MIGRATION_SECRET } }] : []),
        ]);
      }
      expect(secretVariables(objects)).not.toContain('MIGRATION_DATABASE_URL');
      const migration = find(objects, 'Secret', MIGRATION_SECRET) as { stringData?: Record<string, string> };
      expect(Object.keys(migration.stringData ?? {})).toEqual(['MIGRATION_DATABASE_URL']);
      // The owner's URL must name the services' database (the config refuses another one).
      const owner = 'postgres://directory:password@postgres.example.internal:5432/doctor_directory';
      expect(
        loadConfig({ ...environmentWithSecrets(objects), MIGRATION_DATABASE_URL: owner })
          .MIGRATION_DATABASE_URL,
      ).toBe(owner);
      expect(new URL(migration.stringData?.MIGRATION_DATABASE_URL ?? '').pathname).toBe(
        new URL(environmentOf(objects).DATABASE_URL ?? '').pathname,
      );
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
      // What the console needs besides (its mails), set too.
      expect(consoleMailSettings(config).publicUrl).toMatch(/^https:\/\//);
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

    it(`${rendering}: network policies: deny by default, then each process only what it needs`, () => {
      const policies = objects.filter((object) => object.kind === 'NetworkPolicy');
      const isolating = policies.filter((policy) => Object.keys(specOf(policy).podSelector).length === 0);
      expect(isolating.map((policy) => specOf(policy))).toEqual([
        { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
      ]);
      const podLabels = (name: string) =>
        (
          find(objects, name === 'migrate' ? 'Job' : 'Deployment', `directory-${name}`).spec as {
            template: { metadata: { labels: Record<string, string> } };
          }
        ).template.metadata.labels;
      const egress = (name: string, connection: Connection) =>
        allows(policies, 'Egress', podLabels(name), connection);
      const ingress = (name: string, connection: Connection) =>
        allows(policies, 'Ingress', podLabels(name), connection);
      const kubeDns = {
        namespaceLabels: { 'kubernetes.io/metadata.name': 'kube-system' },
        podLabels: { 'k8s-app': 'kube-dns' },
      };
      const internet = { ip: '93.184.216.34' };
      const config = configWithSecrets(objects);

      for (const name of [...Object.keys(PROCESSES), 'migrate']) {
        // DNS, and PostgreSQL, Redis and Elasticsearch on the private network.
        expect(egress(name, { peer: kubeDns, port: 53, protocol: 'UDP' }), name).toBe(true);
        expect(egress(name, { peer: kubeDns, port: 53, protocol: 'TCP' }), name).toBe(true);
        for (const port of [5432, 6379, 9200]) {
          expect(egress(name, { peer: { ip: '10.20.0.5' }, port }), `${name} ${port}`).toBe(true);
        }
        expect(egress(name, { peer: { ip: '10.20.0.5' }, port: 80 }), name).toBe(false);
        // Only the console reaches an SMTP relay on the private network (its mails), never the internet's.
        expect(egress(name, { peer: { ip: '10.20.0.5' }, port: 587 }), name).toBe(name === 'console');
        expect(egress(name, { peer: internet, port: 587 }), name).toBe(false);
        expect(egress(name, { peer: internet, port: 5432 }), name).toBe(false);
        // Only the worker reaches the internet (webhooks), only on 443.
        expect(egress(name, { peer: internet, port: 443 }), name).toBe(name === 'worker');
        expect(egress(name, { peer: internet, port: 80 }), name).toBe(false);
      }
      // Never the cluster's own ranges, the private networks or the metadata service.
      for (const ip of [
        '10.0.0.1',
        '172.16.5.4',
        '172.31.255.1',
        '192.168.1.1',
        '169.254.169.254',
        '100.64.0.1',
        '127.0.0.1',
      ]) {
        expect(egress('worker', { peer: { ip }, port: 443 }), ip).toBe(false);
      }
      expect(egress('worker', { peer: { ip: '172.32.0.1' }, port: 443 })).toBe(true);

      // The public ports from anywhere (the ingress controller); nothing else but the metrics scraper.
      const anyone = { ip: '203.0.113.7' };
      const scraper = {
        namespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' },
        podLabels: { app: 'prometheus' },
      };
      for (const [name, settings] of Object.entries(PROCESSES)) {
        const publicPort = settings.port === undefined ? undefined : Number(config[settings.port]);
        if (publicPort !== undefined)
          expect(ingress(name, { peer: anyone, port: publicPort }), name).toBe(true);
        for (const other of [3000, 3001, 3002].filter((port) => port !== publicPort)) {
          expect(ingress(name, { peer: anyone, port: other }), `${name} ${other}`).toBe(false);
        }
        const opsPort = Number(config[settings.opsPort]);
        expect(ingress(name, { peer: scraper, port: opsPort }), name).toBe(true);
        expect(ingress(name, { peer: anyone, port: opsPort }), name).toBe(false);
      }
      expect(ingress('migrate', { peer: anyone, port: 3000 })).toBe(false);
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

describe('the network policy evaluator the spec relies on', () => {
  it('matches CIDR blocks by their prefix', () => {
    expect(inCidr('10.255.0.1', '10.0.0.0/8')).toBe(true);
    expect(inCidr('11.0.0.1', '10.0.0.0/8')).toBe(false);
    expect(inCidr('172.31.0.1', '172.16.0.0/12')).toBe(true);
    expect(inCidr('172.32.0.1', '172.16.0.0/12')).toBe(false);
    expect(inCidr('1.2.3.4', '0.0.0.0/0')).toBe(true);
    expect(inCidr('1.2.3.4', '::/0')).toBe(false);
  });

  it('lets everything through to a pod no policy selects, and nothing past a default deny', () => {
    const deny = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'deny' },
      spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
    };
    const connection = { peer: { ip: '1.2.3.4' }, port: 443 };
    expect(allows([], 'Egress', { app: 'x' }, connection)).toBe(true);
    expect(allows([deny], 'Egress', { app: 'x' }, connection)).toBe(false);
    expect(allows([deny], 'Ingress', { app: 'x' }, connection)).toBe(false);
  });
});

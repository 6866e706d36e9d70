import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cyclesOf, dependenciesOf, layersOf, readPackageGraph, type PackageGraph } from './package-graph.js';

const graph = readPackageGraph(fileURLToPath(new URL('../../', import.meta.url)));
const SERVICES = ['api', 'console', 'mcp', 'worker'];

describe('package import graph', () => {
  it('has no cycle', () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('keeps the pure core and the configuration at the bottom', () => {
    expect([...(graph.get('domain') ?? [])]).toEqual([]);
    expect([...(graph.get('config') ?? [])]).toEqual([]);
  });

  it('keeps the test harness independent of the pipeline it checks', () => {
    expect(dependenciesOf(graph, 'testing').has('ingest')).toBe(false);
  });

  it('keeps the key console free of the search client', () => {
    const consoleDependencies = dependenciesOf(graph, 'console');
    expect(consoleDependencies.has('search-index')).toBe(false);
    expect(consoleDependencies.has('directory')).toBe(false);
  });

  it('has no package importing a service', () => {
    for (const [name, imports] of graph) {
      for (const service of SERVICES) expect(imports.has(service), `${name} imports ${service}`).toBe(false);
    }
  });
});

describe('package graph analysis', () => {
  const sample: PackageGraph = new Map([
    ['a', new Set(['b'])],
    ['b', new Set(['c'])],
    ['c', new Set<string>()],
  ]);

  it('finds layers and transitive dependencies', () => {
    expect(Object.fromEntries(layersOf(sample))).toEqual({ a: 2, b: 1, c: 0 });
    expect(dependenciesOf(sample, 'a')).toEqual(new Set(['b', 'c']));
  });

  it('finds a cycle', () => {
    const cyclic: PackageGraph = new Map([...sample, ['c', new Set(['a'])]]);
    expect(cyclesOf(cyclic).length).toBeGreaterThan(0);
    expect(cyclesOf(cyclic)[0]).toMatch(/^(\w) > .* > \1$/);
  });
});

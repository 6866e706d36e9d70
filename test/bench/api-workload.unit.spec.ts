import { describe, expect, it } from 'vitest';
import { FACET_NAMES, type SearchFilters } from '@directory/domain';
import { facetsWorkload, withoutFacets, type Task } from '../../bench/api-workload.js';
import { createRandom } from '../../bench/seeded-random.js';

describe('facetsWorkload', () => {
  it('draws searches with 1-4 distinct facets each, the same for a seed, and withoutFacets drops only them', () => {
    const seed = 7;
    const tasks = facetsWorkload(400, createRandom(seed).next);
    expect(facetsWorkload(400, createRandom(seed).next), `seed ${seed}`).toEqual(tasks);
    const pages = tasks.reduce((sum, task) => sum + task.pages, 0);
    expect(pages).toBeGreaterThanOrEqual(400);
    expect(pages - (tasks.at(-1)?.pages ?? 0)).toBeLessThan(400);
    const sizes = new Set<number>();
    for (const task of tasks) {
      const names = task.facets?.names ?? [];
      sizes.add(names.length);
      expect(new Set(names).size, JSON.stringify(task)).toBe(names.length);
      expect(names.every((name) => FACET_NAMES.includes(name))).toBe(true);
      expect([5, 10, 20]).toContain(task.facets?.limit);
      expect(task.pages).toBeGreaterThanOrEqual(1);
      expect(task.pages).toBeLessThanOrEqual(5);
    }
    expect([...sizes].sort()).toEqual([1, 2, 3, 4]);
    // The uniform mix's filters: a dataset always, the others some of the time.
    const filters: SearchFilters[] = tasks.map((task) => task.filters);
    expect(filters.every((filter) => ['de', 'es', 'it', 'pt'].includes(String(filter.country)))).toBe(true);
    expect(filters.some((filter) => filter.city !== undefined)).toBe(true);
    expect(filters.some((filter) => filter.near !== undefined)).toBe(true);

    const get: Task = { kind: 'get', id: 'bench-1' };
    const plain = withoutFacets([...tasks, get]);
    expect(plain.at(-1)).toBe(get);
    expect(plain.slice(0, -1)).toEqual(tasks.map(({ facets: _facets, ...task }) => task));
    expect(plain.some((task) => 'facets' in task)).toBe(false);
  });
});

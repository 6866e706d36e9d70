import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createIngestMetrics, createSweepCounter } from '../src/ingest-metrics.js';

async function value(registry: Registry, name: string): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  return metric?.values.reduce((total, sample) => total + sample.value, 0) ?? Number.NaN;
}

describe('sweep counter', () => {
  it('counts rounds and the places their pages refolded, refused documents included', async () => {
    const registry = new Registry();
    const sweeps = createSweepCounter();
    sweeps.attach(createIngestMetrics(registry));
    sweeps.round();
    sweeps.page({ projected: 40, refused: [] });
    sweeps.page({ projected: 8, refused: [{}, {}] });
    sweeps.round();
    expect(await value(registry, 'directory_sweeps_total')).toBe(2);
    expect(await value(registry, 'directory_sweep_refolded_places_total')).toBe(50);
  });

  it('keeps what the start-up sweep counted before the series existed', async () => {
    const registry = new Registry();
    const sweeps = createSweepCounter();
    sweeps.round();
    sweeps.page({ projected: 7, refused: [{}] });
    sweeps.attach(createIngestMetrics(registry));
    sweeps.page({ projected: 2, refused: [] });
    expect(await value(registry, 'directory_sweeps_total')).toBe(1);
    expect(await value(registry, 'directory_sweep_refolded_places_total')).toBe(10);
  });
});

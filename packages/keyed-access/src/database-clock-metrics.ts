import { Gauge, type Registry } from 'prom-client';
import type { DatabaseClock } from '@directory/keys';

/**
 * `key_check_database_clock_skew_seconds`: the database's clock minus this host's, from the latest key
 * row read (0 before one). Key checks follow the database's clock whatever it shows; a host far off
 * should still be set right, since everything else it times follows its own.
 */
export function registerDatabaseClockMetrics(registry: Registry, clock: DatabaseClock): void {
  new Gauge({
    name: 'key_check_database_clock_skew_seconds',
    help: "The database's clock minus this host's, from the latest key row read (key checks follow the database's)",
    registers: [registry],
    collect() {
      this.set((clock.skewMs() ?? 0) / 1000);
    },
  });
}

import type { RedisClient } from '@directory/config';

export type RedisDurabilitySettings = { appendonly?: string; save?: string; maxmemoryPolicy?: string };

/**
 * What a production queue needs from Redis: persistence (AOF or RDB snapshots), so a restart does not
 * lose queued batches, and `noeviction`, so memory pressure refuses writes instead of silently
 * deleting jobs. Returns one warning per setting that falls short (empty when all is well).
 */
export function redisDurabilityWarnings(settings: RedisDurabilitySettings): string[] {
  const warnings: string[] = [];
  const aof = settings.appendonly === 'yes';
  const snapshots = settings.save !== undefined && settings.save.trim() !== '';
  if (settings.appendonly !== undefined && settings.save !== undefined && !aof && !snapshots) {
    warnings.push('Redis has no persistence (appendonly no, save ""): a restart loses every queued batch');
  }
  if (settings.maxmemoryPolicy !== undefined && settings.maxmemoryPolicy !== 'noeviction') {
    warnings.push(
      `Redis maxmemory-policy is ${settings.maxmemoryPolicy}: under memory pressure it evicts queue keys; use noeviction`,
    );
  }
  return warnings;
}

/**
 * Reads the settings with CONFIG GET. Managed Redis services often refuse CONFIG: then the settings are
 * unknown, which is reported as such (not as a fault).
 */
export async function readRedisDurabilitySettings(
  redis: RedisClient,
): Promise<{ known: true; settings: RedisDurabilitySettings } | { known: false; reason: string }> {
  try {
    const [appendonly, save, policy] = await Promise.all(
      ['appendonly', 'save', 'maxmemory-policy'].map(async (name) => {
        const reply = (await redis.config('GET', name)) as string[];
        return reply[1];
      }),
    );
    return { known: true, settings: { appendonly, save, maxmemoryPolicy: policy } };
  } catch (error) {
    return { known: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Logs (never fails start-up) when the connected Redis is not set up to keep a queue safe. */
export async function warnAboutRedisDurability(
  redis: RedisClient,
  log: { warn: (fields: object, message: string) => void; info: (fields: object, message: string) => void },
): Promise<void> {
  const read = await readRedisDurabilitySettings(redis);
  if (!read.known) {
    log.info(
      { reason: read.reason },
      'could not read Redis settings (CONFIG GET refused?); check persistence and noeviction by hand',
    );
    return;
  }
  for (const warning of redisDurabilityWarnings(read.settings)) log.warn({ redis: read.settings }, warning);
}

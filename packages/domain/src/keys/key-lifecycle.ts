// Rules of an API key's life after creation: expiry, rotation with a grace period, last use and daily
// usage. Pure: every function takes the time it reasons about as an argument.

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Lifetimes a key may be created with (days); `never` is no expiry. */
export const KEY_EXPIRY_CHOICES = ['never', '30', '90', '365'] as const;
export type KeyExpiryChoice = (typeof KEY_EXPIRY_CHOICES)[number];

/** How long a rolled key's old secret keeps working beside its successor's. */
export const KEY_GRACE_CHOICES = ['none', '1h', '24h'] as const;
export type KeyGraceChoice = (typeof KEY_GRACE_CHOICES)[number];

const GRACE_MS: Record<KeyGraceChoice, number> = { none: 0, '1h': HOUR_MS, '24h': 24 * HOUR_MS };

/** Keys expiring within this long are flagged in the console. */
export const KEY_EXPIRY_WARNING_MS = 7 * DAY_MS;

/** Days of usage the console shows. */
export const KEY_USAGE_DAYS = 30;

export function isKeyExpiryChoice(value: string): value is KeyExpiryChoice {
  return (KEY_EXPIRY_CHOICES as readonly string[]).includes(value);
}

export function isKeyGraceChoice(value: string): value is KeyGraceChoice {
  return (KEY_GRACE_CHOICES as readonly string[]).includes(value);
}

/** When a key created at `createdAt` with this choice expires (null: never). */
export function expiryFor(createdAt: Date, choice: KeyExpiryChoice): Date | null {
  return choice === 'never' ? null : new Date(createdAt.getTime() + Number(choice) * DAY_MS);
}

/** When the old secret of a key rolled at `rolledAt` stops working (its scheduled revocation). */
export function graceEndFor(rolledAt: Date, grace: KeyGraceChoice): Date {
  return new Date(rolledAt.getTime() + GRACE_MS[grace]);
}

/**
 * The expiry a rolled key's successor gets: the same lifetime as the key it replaces, counted from the
 * roll (a 90-day key rolls into a fresh 90-day key), or none when the old key had none.
 */
export function successorExpiry(
  old: { creationTime: Date; expiresAt: Date | null },
  rolledAt: Date,
): Date | null {
  if (old.expiresAt === null) return null;
  return new Date(rolledAt.getTime() + (old.expiresAt.getTime() - old.creationTime.getTime()));
}

/** What a key's timestamps say about it at one instant. */
export type KeyState =
  /** Authenticates requests. */
  | 'active'
  /** Rolled: still authenticates until its scheduled revocation (`revokedAt`, in the future). */
  | 'retiring'
  | 'expired'
  | 'revoked';

/**
 * A key is revoked from its `revokedAt` on (a roll schedules it in the future), expired from its
 * `expiresAt` on; a revocation that came first wins, so a key revoked before its expiry stays "revoked".
 */
export function keyStateAt(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): KeyState {
  const at = now.getTime();
  const revokedAt = key.revokedAt?.getTime() ?? Infinity;
  const expiresAt = key.expiresAt?.getTime() ?? Infinity;
  if (revokedAt <= at || expiresAt <= at) return revokedAt <= expiresAt ? 'revoked' : 'expired';
  return revokedAt === Infinity ? 'active' : 'retiring';
}

/** Whether the key still authenticates requests at `now` (active or in its grace period). */
export function keyWorksAt(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): boolean {
  const state = keyStateAt(key, now);
  return state === 'active' || state === 'retiring';
}

/** Whether a working key stops working (expires or ends its grace) within the warning period. */
export function keyEndsSoon(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): boolean {
  if (!keyWorksAt(key, now)) return false;
  const end = Math.min(key.revokedAt?.getTime() ?? Infinity, key.expiresAt?.getTime() ?? Infinity);
  return end - now.getTime() <= KEY_EXPIRY_WARNING_MS;
}

/** The UTC day an instant falls in, as `YYYY-MM-DD` (usage is counted per key per UTC day). */
export function usageDay(at: Date | number): string {
  return new Date(typeof at === 'number' ? at : at.getTime()).toISOString().slice(0, 10);
}

/** The first instant of the UTC day after the one `at` falls in (epoch ms). */
export function nextUsageDayStart(at: number): number {
  return (Math.floor(at / DAY_MS) + 1) * DAY_MS;
}

export type DailyUsage = { day: string; requests: number; limited: number };

/**
 * The last `days` UTC days up to and including today, oldest first, each with its counts (zero for a
 * day without any); counts for days outside the window are ignored.
 */
export function usageWindow(
  counts: ReadonlyArray<DailyUsage>,
  now: Date,
  days: number = KEY_USAGE_DAYS,
): DailyUsage[] {
  const byDay = new Map<string, DailyUsage>();
  for (const count of counts) {
    const seen = byDay.get(count.day);
    byDay.set(count.day, {
      day: count.day,
      requests: (seen?.requests ?? 0) + count.requests,
      limited: (seen?.limited ?? 0) + count.limited,
    });
  }
  const today = Math.floor(now.getTime() / DAY_MS);
  const window: DailyUsage[] = [];
  for (let offset = days - 1; offset >= 0; offset -= 1) {
    const day = usageDay((today - offset) * DAY_MS);
    window.push(byDay.get(day) ?? { day, requests: 0, limited: 0 });
  }
  return window;
}

export function usageTotals(days: ReadonlyArray<DailyUsage>): { requests: number; limited: number } {
  let requests = 0;
  let limited = 0;
  for (const day of days) {
    requests += day.requests;
    limited += day.limited;
  }
  return { requests, limited };
}

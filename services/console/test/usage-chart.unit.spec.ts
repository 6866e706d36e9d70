import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { usageWindow } from '@directory/domain';
import { formatCount, usageChart } from '../src/keys/usage-chart.js';

const now = new Date('2025-03-31T12:00:00.000Z');

function bars(svg: string): Array<{ day: string; served: number; limited: number }> {
  return [...svg.matchAll(/<g data-day="([^"]+)"[^>]*>([\s\S]*?)<\/g>/g)].map((match) => ({
    day: match[1] ?? '',
    served: Number(/class="bar-served"[^>]*height="([\d.]+)"/.exec(match[2] ?? '')?.[1] ?? 0),
    limited: Number(/class="bar-limited"[^>]*height="([\d.]+)"/.exec(match[2] ?? '')?.[1] ?? 0),
  }));
}

describe('usage chart (server-drawn SVG)', () => {
  it('draws one bar per day, scaled to the busiest day, with the 429 part inside its bar', () => {
    const days = usageWindow(
      [
        { day: '2025-03-31', requests: 200, limited: 50 },
        { day: '2025-03-30', requests: 100, limited: 0 },
      ],
      now,
    );
    const svg = usageChart(days).value;
    const drawn = bars(svg);
    expect(drawn).toHaveLength(30);
    expect(drawn.at(-1)).toEqual({ day: '2025-03-31', served: 120, limited: 30 });
    expect(drawn.at(-2)).toEqual({ day: '2025-03-30', served: 60, limited: 0 });
    expect(drawn[0]).toEqual({ day: '2025-03-02', served: 0, limited: 0 });
    expect(svg).toContain('<title>2025-03-31: 200 requests, 50 answered 429</title>');
    expect(svg).toContain(
      'aria-label="Requests per day from 2025-03-02 to 2025-03-31: 300 in all, 50 answered 429"',
    );
  });

  it('never draws a bar past the plot, nor a 429 part taller than its bar, nor a used day as empty (property)', () => {
    const day = fc
      .tuple(fc.nat({ max: 1_000_000 }), fc.nat({ max: 1_000_000 }))
      .map(([a, b]) => ({ requests: Math.max(a, b), limited: Math.min(a, b) }));
    fc.assert(
      fc.property(fc.array(day, { minLength: 30, maxLength: 30 }), (counts) => {
        const days = usageWindow([], now).map((entry, index) => ({ ...entry, ...counts[index] }));
        bars(usageChart(days).value).forEach((bar, index) => {
          expect(bar.served).toBeLessThanOrEqual(120);
          expect(bar.limited).toBeLessThanOrEqual(bar.served);
          expect(bar.served > 0).toBe((counts[index]?.requests ?? 0) > 0);
        });
      }),
    );
  });

  it('formats counts with thousands separators', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(0)).toBe('0');
  });
});

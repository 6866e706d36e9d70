import { usageTotals, type DailyUsage } from '@directory/domain';
import { html, type SafeHtml } from '../pages/html.js';

// Geometry of the chart, in SVG user units (the browser scales it to the card's width).
const BAR_WIDTH = 14;
const BAR_GAP = 4;
const PLOT_HEIGHT = 120;
const AXIS_HEIGHT = 18;

/**
 * A bar per day (requests; the part answered 429 drawn apart at the bar's foot), drawn on the server as
 * inline SVG so it needs no script: the CSP forbids inline code and the console works without
 * JavaScript. Each bar carries a <title> (the browser's tooltip, read by screen readers), and the whole
 * chart is labelled with its totals; the colours come from the stylesheet.
 */
export function usageChart(days: ReadonlyArray<DailyUsage>): SafeHtml {
  const peak = Math.max(1, ...days.map((day) => day.requests));
  const width = days.length * (BAR_WIDTH + BAR_GAP) - BAR_GAP;
  const totals = usageTotals(days);
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const scale = (count: number): number => (count === 0 ? 0 : Math.max(1, (count / peak) * PLOT_HEIGHT));
  const bars = days.map((day, index) => {
    const x = index * (BAR_WIDTH + BAR_GAP);
    const height = scale(day.requests);
    const limited = Math.min(height, scale(day.limited));
    const label = `${day.day}: ${formatCount(day.requests)} requests, ${formatCount(day.limited)} answered 429`;
    return html`<g data-day="${day.day}" data-requests="${day.requests}" data-limited="${day.limited}">
      <title>${label}</title>
      <rect class="bar-slot" x="${x}" y="0" width="${BAR_WIDTH}" height="${PLOT_HEIGHT}"></rect>
      ${
        height > 0
          ? html`<rect
              class="bar-served"
              x="${x}"
              y="${round(PLOT_HEIGHT - height)}"
              width="${BAR_WIDTH}"
              height="${round(height)}"
            ></rect>`
          : ''
      }
      ${
        limited > 0
          ? html`<rect
              class="bar-limited"
              x="${x}"
              y="${round(PLOT_HEIGHT - limited)}"
              width="${BAR_WIDTH}"
              height="${round(limited)}"
            ></rect>`
          : ''
      }
    </g>`;
  });
  return html`<figure class="usage-chart">
    <svg
      viewBox="0 0 ${width} ${PLOT_HEIGHT + AXIS_HEIGHT}"
      role="img"
      aria-label="Requests per day from ${first} to ${last}: ${formatCount(totals.requests)} in all, ${formatCount(totals.limited)} answered 429"
    >
      ${bars}
      <text class="axis" x="0" y="${PLOT_HEIGHT + AXIS_HEIGHT - 4}">${first}</text>
      <text class="axis" x="${width}" y="${PLOT_HEIGHT + AXIS_HEIGHT - 4}" text-anchor="end">${last}</text>
    </svg>
    <figcaption class="small muted">
      <span class="legend served"></span> requests per day (peak
      ${formatCount(peak === 1 && totals.requests === 0 ? 0 : peak)})
      <span class="legend limited"></span> answered 429 (rate limited)
    </figcaption>
  </figure>`;
}

const round = (value: number): number => Math.round(value * 10) / 10;

/** 1234567 → "1,234,567" (fixed locale, so pages and tests read the same everywhere). */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

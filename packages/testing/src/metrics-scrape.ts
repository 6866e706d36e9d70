import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export type Scrape = {
  /** The sum of a counter's or gauge's samples (a histogram's observation count: its +Inf bucket) matching `labels`. */
  value: (name: string, labels?: Record<string, string>) => number;
  has: (name: string) => boolean;
};

/** Scrapes a `/metrics` endpoint and parses it with a Prometheus text-format parser. */
export async function scrapeMetrics(url: string): Promise<Scrape> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const families = parsePrometheusTextFormat(await response.text());
  const family = (name: string) => families.find((candidate) => candidate.name === name);
  return {
    has: (name) => family(name) !== undefined,
    value: (name, labels = {}) =>
      (family(name)?.metrics ?? [])
        .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value))
        .reduce((total, sample) => total + Number(sample.value ?? sample.buckets?.['+Inf'] ?? 0), 0),
  };
}

declare module 'parse-prometheus-text-format' {
  type Labels = Record<string, string>;
  type Sample = {
    value?: string;
    count?: string;
    sum?: string;
    buckets?: Record<string, string>;
    labels?: Labels;
  };
  type MetricFamily = { name: string; help: string; type: string; metrics: Sample[] };
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}

// `npm run bench:duplicates [-- --count N --seed S --min-score X]`: duplicate detection measured against
// the truth. Generates N labelled sample places (default 100,000: crawls of one practice from several
// sources and look-alike practices, @directory/sample-data), normalizes them and proposes candidate pairs
// (@directory/duplicates), then prints precision, recall and F1 of the proposed pairs against the true
// clusters and the seconds the matcher took per 100,000 places (generation not counted; the process's
// CPU is printed beside the wall time, as the machine may be busy). Pure CPU, no server. The last line is
// one JSON object: precision, recall, f1, seconds_per_100k.
import { parseArgs } from 'node:util';
import { DEFAULT_MIN_SCORE, findCandidatePairs, normalizeRecord, pairMetrics } from '@directory/duplicates';
import { generateLabelledPlaces, type LabelledPlace } from '@directory/sample-data';

const log = (line: string) => process.stderr.write(`${line}\n`);

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    'min-score': { type: 'string', default: String(DEFAULT_MIN_SCORE) },
    'show-errors': { type: 'string', default: '0' },
  },
});
const count = Number(values.count);
const seed = Number(values.seed);
const minScore = Number(values['min-score']);
if (!Number.isInteger(count) || count <= 0) throw new Error('--count must be a positive integer');

log(`generating ${count} labelled places (seed ${seed})`);
const places: LabelledPlace[] = [...generateLabelledPlaces({ count, seed })];
const clusterOf = new Map(places.map((place) => [place.placeId, place.clusterId]));

const wallStarted = performance.now();
const cpuStarted = process.cpuUsage();
const records = places.map((place) =>
  normalizeRecord({
    id: place.placeId,
    name: place.observed.name,
    country: place.observed.address.country,
    city: place.observed.address.city,
    street: place.observed.address.street,
    postalCode: place.observed.address.postalCode,
    location: place.observed.location,
    phones: [
      ...(place.observed.phone === null ? [] : [place.observed.phone]),
      ...place.observed.additionalPhones.map((phone) => phone.number),
    ],
    website: place.observed.website,
  }),
);
const normalizedMs = performance.now() - wallStarted;
const result = findCandidatePairs(records, { minScore });
const wallSeconds = (performance.now() - wallStarted) / 1000;
const cpu = process.cpuUsage(cpuStarted);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;

const metrics = pairMetrics(result.pairs, clusterOf);
const secondsPer100k = (wallSeconds * 100_000) / count;
log(
  `${count} places, ${metrics.truePairs} true pairs; ${result.comparisons} pairs compared ` +
    `(${(result.comparisons / count).toFixed(2)} per place), ${result.skippedBlocks} blocks skipped for size`,
);
log(`proposed ${metrics.proposed} pairs at score ≥ ${minScore}, ${metrics.correct} correct`);
log(
  `precision ${metrics.precision.toFixed(4)}  recall ${metrics.recall.toFixed(4)}  F1 ${metrics.f1.toFixed(4)}`,
);
log(
  `matcher: ${wallSeconds.toFixed(2)} s wall (normalizing ${(normalizedMs / 1000).toFixed(2)} s), ` +
    `${cpuSeconds.toFixed(2)} s CPU; ${secondsPer100k.toFixed(2)} s per 100,000 places`,
);

// Diagnostics for tuning: a few false positives and missed pairs with their evidence.
const showErrors = Number(values['show-errors']);
if (showErrors > 0) {
  const byId = new Map(places.map((place) => [place.placeId, place]));
  const describe = (id: string) => {
    const place = byId.get(id) as LabelledPlace;
    const { name, phone, website, address } = place.observed;
    return `${place.kind} ${name} | ${phone} | ${website} | ${address.street} ${address.postalCode} ${address.city}`;
  };
  for (const pair of result.pairs
    .filter((p) => clusterOf.get(p.a) !== clusterOf.get(p.b))
    .slice(0, showErrors))
    log(`FP ${pair.score} ${JSON.stringify(pair.evidence)}\n   ${describe(pair.a)}\n   ${describe(pair.b)}`);
  const proposed = new Set(result.pairs.map((pair) => `${pair.a} ${pair.b}`));
  const members = new Map<string, string[]>();
  for (const place of places)
    members.set(place.clusterId, [...(members.get(place.clusterId) ?? []), place.placeId]);
  let shown = 0;
  const all = findCandidatePairs(records, { minScore: -Infinity });
  const scoreOf = new Map(all.pairs.map((pair) => [`${pair.a} ${pair.b}`, pair]));
  for (const ids of members.values()) {
    for (let i = 0; i < ids.length && shown < showErrors; i++)
      for (let j = i + 1; j < ids.length && shown < showErrors; j++) {
        const [a, b] = [ids[i] as string, ids[j] as string].sort() as [string, string];
        if (proposed.has(`${a} ${b}`)) continue;
        const scored = scoreOf.get(`${a} ${b}`);
        log(
          `FN ${scored ? `${scored.score} ${JSON.stringify(scored.evidence)}` : 'never compared'}\n   ${describe(a)}\n   ${describe(b)}`,
        );
        shown++;
      }
  }
}

console.log(
  JSON.stringify({
    precision: round(metrics.precision),
    recall: round(metrics.recall),
    f1: round(metrics.f1),
    seconds_per_100k: Math.round(secondsPer100k * 100) / 100,
  }),
);

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

import type { Prng } from './prng.js';

export type Step =
  | 'crawl'
  | 'recrawl'
  | 'published'
  | 'unpublished'
  | 'suppressed'
  | 'unsuppressed'
  | 'closed'
  | 'reopened'
  | 'verified'
  | 'unverified';

/**
 * The life of one place, in emission order. Live countries are mostly published (some verified) and
 * then go through the usual churn; fr, gb and mx are crawled only, as they have no live data yet.
 * `extraRecrawls` (a mean, may be fractional) adds the regular recrawls a long-lived directory holds
 * (a weekly crawl over months); at 0 no random number is drawn for it, so the plans are the ones without.
 */
export function planSteps(live: boolean, prng: Prng, extraRecrawls = 0): Step[] {
  const steps: Step[] = ['crawl'];
  const regular = extraRecrawls > 0 ? regularRecrawls(extraRecrawls, prng) : 0;
  if (!live) {
    if (prng.chance(0.4)) steps.push(...repeat('recrawl', prng.int(1, 2)));
    steps.push(...repeat('recrawl', regular));
    return steps;
  }
  const published = prng.chance(0.88);
  if (published) steps.push('published');
  const verified = prng.chance(0.45);
  if (verified) steps.push('verified');

  const churn: Step[][] = [];
  if (prng.chance(0.45)) churn.push(repeat('recrawl', prng.int(1, 2)));
  if (prng.chance(0.07)) churn.push(prng.chance(0.4) ? ['suppressed', 'unsuppressed'] : ['suppressed']);
  if (prng.chance(0.05)) churn.push(prng.chance(0.3) ? ['closed', 'reopened'] : ['closed']);
  if (published && prng.chance(0.05))
    churn.push(prng.chance(0.3) ? ['unpublished', 'published'] : ['unpublished']);
  if (verified && prng.chance(0.1)) churn.push(['unverified']);
  // Each regular recrawl is an episode of its own: closures and suppressions fall between them.
  for (let index = 0; index < regular; index++) churn.push(['recrawl']);
  // Shuffle whole episodes, keeping each one's internal order (a reopening follows its closure).
  for (let index = churn.length - 1; index > 0; index--) {
    const other = prng.int(0, index);
    [churn[index], churn[other]] = [churn[other] as Step[], churn[index] as Step[]];
  }
  for (const episode of churn) steps.push(...episode);
  return steps;
}

/** The whole part of the mean always, one more with the chance of its fraction. */
function regularRecrawls(mean: number, prng: Prng): number {
  const whole = Math.floor(mean);
  return whole + (prng.chance(mean - whole) ? 1 : 0);
}

function repeat(step: Step, times: number): Step[] {
  return Array.from({ length: times }, () => step);
}

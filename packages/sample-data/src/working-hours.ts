import type { Prng } from './prng.js';

export type TimeRange = { open: string; close: string };
export type WorkingHours = Record<string, TimeRange[]>;

const MORNING_OPEN = ['07:30', '08:00', '08:30', '09:00'];
const MORNING_CLOSE = ['12:00', '12:30', '13:00', '13:30'];
const AFTERNOON_OPEN = ['14:00', '15:00', '15:30', '16:00'];
const AFTERNOON_CLOSE = ['18:00', '18:30', '19:00', '20:00'];
const DAY_OPEN = ['08:00', '08:30', '09:00', '10:00'];
const DAY_CLOSE = ['16:00', '17:00', '18:00', '19:00', '20:00'];

/**
 * Opening hours keyed by the source's own day labels (Monday first). Practices either close over
 * lunch or stay open all day, often shut one weekday afternoon, sometimes open Saturday morning.
 * Closed days are either missing or an empty list, as crawled pages do both.
 */
export function sampleWorkingHours(dayLabels: ReadonlyArray<string>, prng: Prng): WorkingHours {
  const splitDay = prng.chance(0.6);
  const morning = { open: prng.pick(MORNING_OPEN), close: prng.pick(MORNING_CLOSE) };
  const afternoon = { open: prng.pick(AFTERNOON_OPEN), close: prng.pick(AFTERNOON_CLOSE) };
  const fullDay = { open: prng.pick(DAY_OPEN), close: prng.pick(DAY_CLOSE) };
  const shortAfternoonDay = prng.chance(0.5) ? prng.int(0, 4) : -1;
  const writeEmptyDays = prng.chance(0.5);
  const hours: WorkingHours = {};
  dayLabels.forEach((label, day) => {
    if (day < 5) {
      if (!splitDay) hours[label] = [{ ...fullDay }];
      else if (day === shortAfternoonDay) hours[label] = [{ ...morning }];
      else hours[label] = [{ ...morning }, { ...afternoon }];
    } else if (day === 5 && prng.chance(0.3)) {
      hours[label] = [{ open: morning.open, close: '13:00' }];
    } else if (writeEmptyDays) {
      hours[label] = [];
    }
  });
  return hours;
}

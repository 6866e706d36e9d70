import { z } from 'zod';
import { TIME_OF_DAY_PATTERN } from '../events/events.js';

/** ISO 8601 weekday: 1 = Monday … 7 = Sunday. */
const isoWeekdaySchema = z.number().int().min(1).max(7);

const openingPeriodSchema = z
  .strictObject({
    day: isoWeekdaySchema.meta({ description: 'ISO weekday the period opens on: 1 = Monday … 7 = Sunday' }),
    open: z
      .string()
      .regex(TIME_OF_DAY_PATTERN)
      .meta({ description: 'Local opening time, HH:MM (00:00 to 23:59)' }),
    close: z.string().regex(TIME_OF_DAY_PATTERN).meta({
      description:
        'Local closing time, HH:MM; 24:00 is the end of the day, and a time at or before `open` closes on the next day (22:00 to 02:00 runs past midnight)',
    }),
  })
  .meta({ description: 'One opening period in the local time of `timeZone`' });

export const openingHoursSchema = z
  .strictObject({
    timeZone: z.string().meta({
      description:
        'IANA time zone of the place, from its dataset country and, where the country has several, its location (e.g. Atlantic/Canary)',
      examples: ['Europe/Berlin'],
    }),
    periods: z.array(openingPeriodSchema),
  })
  .meta({
    description:
      'API 1.2. Opening hours in structured form: ISO weekdays and local times in the place’s IANA time zone. A day without a period is closed. Null when no hours are published or the published day labels cannot be read.',
  });
export type OpeningHours = z.infer<typeof openingHoursSchema>;

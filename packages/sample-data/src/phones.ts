import type { Prng } from './prng.js';

export type SamplePhone = { number: string; type: 'mobile' | 'landline' };

/**
 * One numbering-plan range: a national prefix, how many subscriber digits follow, and how the national
 * significant number is grouped when written out. Ranges are real allocations so libphonenumber's full
 * metadata accepts them (fictional ranges such as UK 07700 900xxx would be rejected).
 */
type NumberRange = {
  prefix: string;
  subscriberDigits: number;
  groups: ReadonlyArray<number>;
  /** Digits a subscriber number may start with (some blocks are unallocated or belong overseas). */
  firstDigits: string;
};

type NumberingPlan = {
  callingCode: string;
  /** Written before the national number in national format ('' where the plan has none). */
  trunkPrefix: string;
  mobile: ReadonlyArray<NumberRange>;
  landline: ReadonlyArray<NumberRange>;
};

// Subscriber numbers rarely start with 0 or 1 (those usually select services), so the default avoids them.
const range = (prefix: string, subscriberDigits: number, ...groups: number[]): NumberRange => ({
  prefix,
  subscriberDigits,
  groups,
  firstDigits: '23456789',
});
const startingWith = (firstDigits: string, numberRange: NumberRange): NumberRange => ({
  ...numberRange,
  firstDigits,
});
const ranges = (prefixes: string, subscriberDigits: number, ...groups: number[]) =>
  prefixes.split(' ').map((prefix) => range(prefix, subscriberDigits, ...groups));

const PLANS: Readonly<Record<string, NumberingPlan>> = {
  DE: {
    callingCode: '49',
    trunkPrefix: '0',
    mobile: ranges('151 152 157 160 162 163 170 171 172 173 174 175 176 177 178 179', 8, 3, 8),
    landline: [
      ...ranges('30 40 89 69', 8, 2, 8),
      ...ranges('221 211 711 341 351 511 911 421 231 201', 7, 3, 7),
    ],
  },
  ES: {
    callingCode: '34',
    trunkPrefix: '',
    mobile: [...ranges('60 61 62 63 64 65 66 67 68 69', 7, 3, 3, 3), ...ranges('71 72 73 74', 7, 3, 3, 3)],
    // 929 and 989 are unallocated.
    landline: [
      ...ranges('91 93 96 95 94 97', 7, 3, 3, 3),
      ...ranges('98 92', 7, 3, 3, 3).map((r) => startingWith('2345678', r)),
    ],
  },
  FR: {
    callingCode: '33',
    trunkPrefix: '0',
    // 0639, 069x, 0262 and 0590/0594 belong to overseas departments, which libphonenumber files elsewhere.
    mobile: [
      startingWith('01245678', range('6', 8, 1, 2, 2, 2, 2)),
      ...ranges('75 76 77 78', 7, 1, 2, 2, 2, 2),
    ],
    landline: [
      ...ranges('1 3 4', 8, 1, 2, 2, 2, 2),
      startingWith('234578', range('2', 8, 1, 2, 2, 2, 2)),
      startingWith('2345678', range('5', 8, 1, 2, 2, 2, 2)),
    ],
  },
  GB: {
    callingCode: '44',
    trunkPrefix: '0',
    // Only allocated blocks: e.g. 020 starts 3, 7 or 8; 07911 starts 2, 7 or 8.
    mobile: [
      ...ranges('7400 7412 7448 7501 7533 7711 7723 7766 7801 7812 7833 7900 7944 7970', 6, 4, 6),
      startingWith('278', range('7911', 6, 4, 6)),
    ],
    landline: [
      startingWith('378', range('20', 8, 2, 4, 4)),
      ...ranges('161 141 151', 7, 3, 3, 4),
      startingWith('234567', range('121', 7, 3, 3, 4)),
      startingWith('23458', range('113', 7, 3, 3, 4)),
      startingWith('2345678', range('131', 7, 3, 3, 4)),
      startingWith('2349', range('117', 7, 3, 3, 4)),
      startingWith('2345', range('114', 7, 3, 3, 4)),
    ],
  },
  IT: {
    callingCode: '39',
    trunkPrefix: '',
    mobile: ranges(
      '320 324 328 329 330 331 333 335 338 339 340 342 345 347 348 349 366 380 389 393',
      7,
      3,
      3,
      4,
    ),
    landline: [...ranges('06 02', 8, 2, 4, 4), ...ranges('011 055 081 051 010 091', 7, 3, 3, 4)],
  },
  MX: {
    callingCode: '52',
    trunkPrefix: '',
    // Since 2019 Mexican mobiles are dialled like landlines; the old "+52 1" mobile prefix no longer
    // validates in libphonenumber, so mobiles use the plain 10-digit form.
    mobile: ranges('55 33 81', 8, 2, 4, 4),
    landline: [...ranges('55 33 81', 8, 2, 4, 4), ...ranges('222 442 999 664', 7, 3, 3, 4)],
  },
  PT: {
    callingCode: '351',
    trunkPrefix: '',
    mobile: ranges('91 92 93 96', 7, 3, 3, 3),
    landline: [...ranges('21 22', 7, 3, 3, 3), ...ranges('239 253 289', 6, 3, 3, 3)],
  },
};

function group(digits: string, groups: ReadonlyArray<number>): string {
  const parts: string[] = [];
  let offset = 0;
  for (const size of groups) {
    if (offset >= digits.length) break;
    parts.push(digits.slice(offset, offset + size));
    offset += size;
  }
  if (offset < digits.length) parts.push(digits.slice(offset));
  return parts.join(' ');
}

/** A plausible phone number for an uppercase ISO country, in national or international notation. */
export function samplePhone(isoCountry: string, type: SamplePhone['type'], prng: Prng): SamplePhone {
  const plan = PLANS[isoCountry];
  if (plan === undefined) throw new Error(`No numbering plan for ${isoCountry}`);
  const numberRange = prng.pick(type === 'mobile' ? plan.mobile : plan.landline);
  const firstDigit = numberRange.firstDigits.charAt(prng.int(0, numberRange.firstDigits.length - 1));
  const subscriber = firstDigit + prng.digits(numberRange.subscriberDigits - 1);
  const national = group(numberRange.prefix + subscriber, numberRange.groups);
  const number = prng.chance(0.5) ? `+${plan.callingCode} ${national}` : `${plan.trunkPrefix}${national}`;
  return { number, type };
}

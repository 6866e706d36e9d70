import { boundedMemo } from '../shared/bounded-memo.js';
import { foldText } from '../shared/text.js';

// Day labels remembered once folded: the table below has about a hundred; sources add a few spellings.
const LABELS_REMEMBERED = 1_000;

/**
 * The day labels sources write in `workingHours`, in every language of the datasets (en, de, es, fr,
 * it, pt), read as ISO weekdays (1 = Monday … 7 = Sunday). Full names and the usual abbreviations;
 * compared folded (case and accents ignored) and without dots, hyphens or spaces, so "Mié.",
 * "miércoles" and "Terça-feira" / "terca feira" all read. A label outside the vocabulary (a holiday,
 * a range such as "Mo-Fr") reads as nothing: the caller decides what that means.
 */

export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

type WeekLabels = readonly [
  monday: readonly string[],
  tuesday: readonly string[],
  wednesday: readonly string[],
  thursday: readonly string[],
  friday: readonly string[],
  saturday: readonly string[],
  sunday: readonly string[],
];

export const WEEKDAY_LABELS = {
  en: [
    ['Monday', 'Mon'],
    ['Tuesday', 'Tue', 'Tues'],
    ['Wednesday', 'Wed'],
    ['Thursday', 'Thu', 'Thur', 'Thurs'],
    ['Friday', 'Fri'],
    ['Saturday', 'Sat'],
    ['Sunday', 'Sun'],
  ],
  de: [
    ['Montag', 'Mo'],
    ['Dienstag', 'Di'],
    ['Mittwoch', 'Mi'],
    ['Donnerstag', 'Do'],
    ['Freitag', 'Fr'],
    ['Samstag', 'Sonnabend', 'Sa'],
    ['Sonntag', 'So'],
  ],
  es: [
    ['lunes', 'lun'],
    ['martes', 'mar'],
    ['miércoles', 'mié'],
    ['jueves', 'jue'],
    ['viernes', 'vie'],
    ['sábado', 'sáb'],
    ['domingo', 'dom'],
  ],
  fr: [
    ['lundi', 'lun'],
    ['mardi', 'mar'],
    ['mercredi', 'mer'],
    ['jeudi', 'jeu'],
    ['vendredi', 'ven'],
    ['samedi', 'sam'],
    ['dimanche', 'dim'],
  ],
  it: [
    ['lunedì', 'lun'],
    ['martedì', 'mar'],
    ['mercoledì', 'mer'],
    ['giovedì', 'gio'],
    ['venerdì', 'ven'],
    ['sabato', 'sab'],
    ['domenica', 'dom'],
  ],
  pt: [
    ['segunda-feira', 'segunda', 'seg'],
    ['terça-feira', 'terça', 'ter'],
    ['quarta-feira', 'quarta', 'qua'],
    ['quinta-feira', 'quinta', 'qui'],
    ['sexta-feira', 'sexta', 'sex'],
    ['sábado', 'sáb'],
    ['domingo', 'dom'],
  ],
} as const satisfies Record<string, WeekLabels>;

/** The comparison form of a label: folded, letters and digits only. */
export function weekdayLabelKey(label: string): string {
  return foldText(label).replace(/[^\p{L}\p{N}]+/gu, '');
}

// Built once. A key two languages share must name the same day ("mar" is Tuesday in es, fr and it);
// a conflict is a mistake in the table above, so it stops the module from loading.
const WEEKDAY_BY_KEY: ReadonlyMap<string, IsoWeekday> = (() => {
  const byKey = new Map<string, IsoWeekday>();
  for (const [language, week] of Object.entries(WEEKDAY_LABELS)) {
    week.forEach((labels, index) => {
      const day = (index + 1) as IsoWeekday;
      for (const label of labels) {
        const key = weekdayLabelKey(label);
        const known = byKey.get(key);
        if (known !== undefined && known !== day) {
          throw new Error(`weekday label "${label}" (${language}) is already day ${known}`);
        }
        byKey.set(key, day);
      }
    });
  }
  return byKey;
})();

/**
 * The ISO weekday a source day label names, or undefined when it is not one. Every place with opening
 * hours asks this for each of its days, in a handful of spellings per language: each is folded once.
 */
export const isoWeekdayOf: (label: string) => IsoWeekday | undefined = boundedMemo(
  (label) => WEEKDAY_BY_KEY.get(weekdayLabelKey(label)),
  LABELS_REMEMBERED,
);

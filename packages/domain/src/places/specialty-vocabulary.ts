import type { Doctor } from './doctor.js';
import type { PageLanguage } from './profile-url.js';
import { boundedMemo } from '../shared/bounded-memo.js';
import { foldText } from '../shared/text.js';

// Published labels remembered once looked up: the vocabulary's own plus what sources write.
const LABELS_REMEMBERED = 10_000;

/**
 * The specialty vocabulary: stable, language-independent codes for what a record's primary
 * type and specialties say, so a client can filter (`specialty=`) and label (`GET /api/v1/specialties`)
 * in any page language, whatever language the dataset publishes in.
 *
 * Each entry has:
 * - `code`: lowercase kebab-case, never renamed or reused once published (clients store it);
 * - `labels`: the display label in every page language;
 * - `synonyms`: source labels, per source language, that mean this code. The labels count as synonyms
 *   too. Both the profession ("Pediatra") and the field ("Pediatría") belong here.
 *
 * A source label maps to a code when its key (`labelKey`: folded, so case, accents and spacing do not
 * matter, and punctuation read as a space, so "HNO-Arzt" is "HNO Arzt") equals the key of a label or
 * synonym. Matching is the whole label, never a part of it: a label outside the vocabulary maps to no
 * code, never to a guess. Keys are matched across all languages at once (a dataset may publish labels in
 * another language than its country's); the vocabulary spec refuses a key that would mean two codes.
 *
 * Where sample labels are borderline the vocabulary says so: "Women's health" (GB practices' listing for
 * gynaecological care) is gynecology; an optometrist is not an ophthalmologist (`optometry`); GP and
 * family medicine are one code; Spain's "Traumatología" is orthopedic surgery; dental "Prophylaxe",
 * "Hygienist" and "Igiene dentale" are dental hygiene; "Implants" (a dental listing) is dental implants.
 *
 * Changing the vocabulary changes search documents: run `npm run reindex -- --replay` after deploying
 * it (docs/development.md, "Add a specialty code or synonym").
 */

export type SpecialtyEntry = {
  code: string;
  labels: Record<PageLanguage, string>;
  synonyms: Partial<Record<PageLanguage, ReadonlyArray<string>>>;
};

// Order: medical fields, then therapies and services, then dentistry; the list endpoint orders by code.
export const SPECIALTY_VOCABULARY = [
  {
    code: 'general-practice',
    labels: {
      en: 'General practice',
      de: 'Allgemeinmedizin',
      es: 'Medicina general',
      fr: 'Médecine générale',
      it: 'Medicina generale',
      pt: 'Medicina geral e familiar',
    },
    synonyms: {
      en: ['General practitioner', 'GP', 'Family medicine', 'Family doctor', 'Family physician'],
      de: ['Allgemeinarzt', 'Allgemeinärztin', 'Hausarzt', 'Hausärztin', 'Praktischer Arzt'],
      es: ['Médico general', 'Médica general', 'Medicina familiar', 'Médico de familia'],
      fr: ['Médecin généraliste', 'Généraliste'],
      it: ['Medico di base', 'Medico di famiglia', 'Medico generico', 'Medicina di famiglia'],
      pt: ['Médico de família', 'Medicina geral', 'Medicina familiar', 'Clínica geral'],
    },
  },
  {
    code: 'internal-medicine',
    labels: {
      en: 'Internal medicine',
      de: 'Innere Medizin',
      es: 'Medicina interna',
      fr: 'Médecine interne',
      it: 'Medicina interna',
      pt: 'Medicina interna',
    },
    synonyms: {
      en: ['Internist'],
      de: ['Internist', 'Internistin'],
      es: ['Internista'],
      fr: ['Interniste'],
    },
  },
  {
    code: 'pediatrics',
    labels: {
      en: 'Paediatrics',
      de: 'Kinderheilkunde',
      es: 'Pediatría',
      fr: 'Pédiatrie',
      it: 'Pediatria',
      pt: 'Pediatria',
    },
    synonyms: {
      en: ['Pediatrics', 'Paediatrician', 'Pediatrician'],
      de: ['Kinderarzt', 'Kinderärztin', 'Kinder- und Jugendmedizin', 'Pädiatrie'],
      es: ['Pediatra'],
      fr: ['Pédiatre'],
      it: ['Pediatra'],
      pt: ['Pediatra'],
    },
  },
  {
    code: 'gynecology',
    labels: {
      en: 'Gynaecology',
      de: 'Gynäkologie',
      es: 'Ginecología',
      fr: 'Gynécologie',
      it: 'Ginecologia',
      pt: 'Ginecologia',
    },
    synonyms: {
      en: ['Gynecology', 'Gynaecologist', 'Gynecologist', "Women's health"],
      de: ['Frauenarzt', 'Frauenärztin', 'Frauenheilkunde', 'Gynäkologe', 'Gynäkologin'],
      es: ['Ginecólogo', 'Ginecóloga'],
      fr: ['Gynécologue'],
      it: ['Ginecologo', 'Ginecologa'],
      pt: ['Ginecologista'],
    },
  },
  {
    code: 'ophthalmology',
    labels: {
      en: 'Ophthalmology',
      de: 'Augenheilkunde',
      es: 'Oftalmología',
      fr: 'Ophtalmologie',
      it: 'Oculistica',
      pt: 'Oftalmologia',
    },
    synonyms: {
      en: ['Ophthalmologist'],
      de: ['Augenarzt', 'Augenärztin'],
      es: ['Oftalmólogo', 'Oftalmóloga'],
      fr: ['Ophtalmologue', 'Ophtalmologiste'],
      it: ['Oculista', 'Oftalmologo', 'Oftalmologia'],
      pt: ['Oftalmologista'],
    },
  },
  {
    code: 'optometry',
    labels: {
      en: 'Optometry',
      de: 'Optometrie',
      es: 'Optometría',
      fr: 'Optométrie',
      it: 'Optometria',
      pt: 'Optometria',
    },
    synonyms: {
      en: ['Optometrist'],
      de: ['Optometrist', 'Optometristin'],
      es: ['Optometrista'],
      fr: ['Optométriste'],
      it: ['Optometrista'],
      pt: ['Optometrista'],
    },
  },
  {
    code: 'dermatology',
    labels: {
      en: 'Dermatology',
      de: 'Dermatologie',
      es: 'Dermatología',
      fr: 'Dermatologie',
      it: 'Dermatologia',
      pt: 'Dermatologia',
    },
    synonyms: {
      en: ['Dermatologist'],
      de: ['Hautarzt', 'Hautärztin', 'Dermatologe', 'Dermatologin'],
      es: ['Dermatólogo', 'Dermatóloga'],
      fr: ['Dermatologue'],
      it: ['Dermatologo', 'Dermatologa'],
      pt: ['Dermatologista'],
    },
  },
  {
    code: 'orthopedics',
    labels: {
      en: 'Orthopaedics',
      de: 'Orthopädie',
      es: 'Traumatología',
      fr: 'Orthopédie',
      it: 'Ortopedia',
      pt: 'Ortopedia',
    },
    synonyms: {
      en: ['Orthopedics', 'Orthopaedic surgeon', 'Orthopedic surgeon'],
      de: ['Orthopäde', 'Orthopädin'],
      es: ['Traumatólogo', 'Traumatóloga', 'Ortopedia', 'Traumatología y ortopedia'],
      fr: ['Orthopédiste', 'Chirurgien orthopédiste'],
      it: ['Ortopedico', 'Ortopedica'],
      pt: ['Ortopedista'],
    },
  },
  {
    code: 'otorhinolaryngology',
    labels: {
      en: 'Ear, nose and throat (ENT)',
      de: 'Hals-Nasen-Ohren-Heilkunde',
      es: 'Otorrinolaringología',
      fr: 'Oto-rhino-laryngologie',
      it: 'Otorinolaringoiatria',
      pt: 'Otorrinolaringologia',
    },
    synonyms: {
      en: ['ENT', 'Ear, nose and throat', 'Otolaryngology', 'Otorhinolaryngology'],
      de: ['HNO-Arzt', 'HNO-Ärztin', 'HNO', 'HNO-Heilkunde', 'Hals-Nasen-Ohren-Arzt'],
      es: ['Otorrino', 'Otorrinolaringólogo'],
      fr: ['ORL', 'Oto-rhino-laryngologiste'],
      it: ['Otorino', 'Otorinolaringoiatra'],
      pt: ['Otorrino', 'Otorrinolaringologista'],
    },
  },
  {
    code: 'cardiology',
    labels: {
      en: 'Cardiology',
      de: 'Kardiologie',
      es: 'Cardiología',
      fr: 'Cardiologie',
      it: 'Cardiologia',
      pt: 'Cardiologia',
    },
    synonyms: {
      en: ['Cardiologist'],
      de: ['Kardiologe', 'Kardiologin'],
      es: ['Cardiólogo', 'Cardióloga'],
      fr: ['Cardiologue'],
      it: ['Cardiologo', 'Cardiologa'],
      pt: ['Cardiologista'],
    },
  },
  {
    code: 'allergology',
    labels: {
      en: 'Allergology',
      de: 'Allergologie',
      es: 'Alergología',
      fr: 'Allergologie',
      it: 'Allergologia',
      pt: 'Imunoalergologia',
    },
    synonyms: {
      en: ['Allergist', 'Allergy'],
      de: ['Allergologe', 'Allergologin'],
      es: ['Alergólogo', 'Alergóloga'],
      fr: ['Allergologue'],
      it: ['Allergologo', 'Allergologa'],
      pt: ['Alergologia', 'Imunoalergologista'],
    },
  },
  {
    code: 'diabetology',
    labels: {
      en: 'Diabetes care',
      de: 'Diabetologie',
      es: 'Diabetología',
      fr: 'Diabétologie',
      it: 'Diabetologia',
      pt: 'Diabetologia',
    },
    synonyms: {
      en: ['Diabetology', 'Diabetologist'],
      de: ['Diabetologe', 'Diabetologin'],
      es: ['Diabetólogo'],
      fr: ['Diabétologue'],
      it: ['Diabetologo'],
      pt: ['Diabetologista'],
    },
  },
  {
    code: 'sports-medicine',
    labels: {
      en: 'Sports medicine',
      de: 'Sportmedizin',
      es: 'Medicina deportiva',
      fr: 'Médecine du sport',
      it: 'Medicina dello sport',
      pt: 'Medicina desportiva',
    },
    synonyms: {
      es: ['Medicina del deporte'],
      pt: ['Medicina do desporto', 'Medicina esportiva'],
    },
  },
  {
    code: 'travel-medicine',
    labels: {
      en: 'Travel medicine',
      de: 'Reisemedizin',
      es: 'Medicina del viajero',
      fr: 'Médecine des voyages',
      it: 'Medicina dei viaggi',
      pt: 'Medicina do viajante',
    },
    synonyms: { en: ['Travel health', 'Travel clinic'] },
  },
  {
    code: 'minor-surgery',
    labels: {
      en: 'Minor surgery',
      de: 'Kleine Chirurgie',
      es: 'Cirugía menor',
      fr: 'Petite chirurgie',
      it: 'Piccola chirurgia',
      pt: 'Pequena cirurgia',
    },
    synonyms: {},
  },
  {
    code: 'preventive-checkups',
    labels: {
      en: 'Preventive check-ups',
      de: 'Vorsorgeuntersuchungen',
      es: 'Revisiones preventivas',
      fr: 'Bilans de prévention',
      it: 'Controlli preventivi',
      pt: 'Exames preventivos',
    },
    synonyms: {
      en: ['Health check', 'Health checks', 'Check-ups'],
      de: ['Vorsorgeuntersuchung', 'Vorsorge', 'Check-up'],
      es: ['Chequeos preventivos', 'Chequeo médico'],
      fr: ['Bilan de santé'],
      it: ['Check-up'],
      pt: ['Check-up'],
    },
  },
  {
    code: 'nutrition',
    labels: {
      en: 'Nutrition',
      de: 'Ernährungsmedizin',
      es: 'Nutrición',
      fr: 'Nutrition',
      it: 'Nutrizione',
      pt: 'Nutrição',
    },
    synonyms: {
      en: ['Dietetics', 'Dietitian', 'Nutritionist'],
      de: ['Ernährungsberatung'],
      es: ['Nutricionista', 'Dietética'],
      fr: ['Nutritionniste', 'Diététique', 'Diététicien'],
      it: ['Nutrizionista', 'Dietologia'],
      pt: ['Nutricionista'],
    },
  },
  {
    code: 'physiotherapy',
    labels: {
      en: 'Physiotherapy',
      de: 'Physiotherapie',
      es: 'Fisioterapia',
      fr: 'Kinésithérapie',
      it: 'Fisioterapia',
      pt: 'Fisioterapia',
    },
    synonyms: {
      en: ['Physiotherapist', 'Physical therapy', 'Physical therapist'],
      de: ['Physiotherapeut', 'Physiotherapeutin', 'Krankengymnastik'],
      es: ['Fisioterapeuta'],
      fr: ['Kinésithérapeute', 'Masseur-kinésithérapeute', 'Kiné'],
      it: ['Fisioterapista'],
      pt: ['Fisioterapeuta'],
    },
  },
  {
    code: 'acupuncture',
    labels: {
      en: 'Acupuncture',
      de: 'Akupunktur',
      es: 'Acupuntura',
      fr: 'Acupuncture',
      it: 'Agopuntura',
      pt: 'Acupunctura',
    },
    synonyms: { pt: ['Acupuntura'] },
  },
  {
    code: 'naturopathy',
    labels: {
      en: 'Naturopathy',
      de: 'Naturheilverfahren',
      es: 'Naturopatía',
      fr: 'Naturopathie',
      it: 'Naturopatia',
      pt: 'Naturopatia',
    },
    synonyms: { de: ['Naturheilkunde'] },
  },
  {
    code: 'homeopathy',
    labels: {
      en: 'Homeopathy',
      de: 'Homöopathie',
      es: 'Homeopatía',
      fr: 'Homéopathie',
      it: 'Omeopatia',
      pt: 'Homeopatia',
    },
    synonyms: { en: ['Homoeopathy'] },
  },
  {
    code: 'dentistry',
    labels: {
      en: 'Dentistry',
      de: 'Zahnmedizin',
      es: 'Odontología',
      fr: 'Dentisterie',
      it: 'Odontoiatria',
      pt: 'Medicina dentária',
    },
    synonyms: {
      en: ['Dentist', 'Dental practice', 'General dentistry'],
      de: ['Zahnarzt', 'Zahnärztin', 'Zahnheilkunde'],
      es: ['Dentista', 'Odontólogo', 'Odontóloga'],
      fr: ['Chirurgien-dentiste', 'Dentiste'],
      it: ['Dentista', 'Odontoiatra'],
      pt: ['Dentista', 'Médico dentista', 'Estomatologia'],
    },
  },
  {
    code: 'orthodontics',
    labels: {
      en: 'Orthodontics',
      de: 'Kieferorthopädie',
      es: 'Ortodoncia',
      fr: 'Orthodontie',
      it: 'Ortodonzia',
      pt: 'Ortodontia',
    },
    synonyms: {
      en: ['Orthodontist'],
      de: ['Kieferorthopäde', 'Kieferorthopädin'],
      es: ['Ortodoncista'],
      fr: ['Orthodontiste'],
      it: ['Ortodontista'],
      pt: ['Ortodontista'],
    },
  },
  {
    code: 'dental-implants',
    labels: {
      en: 'Dental implants',
      de: 'Implantologie',
      es: 'Implantología',
      fr: 'Implantologie',
      it: 'Implantologia',
      pt: 'Implantologia',
    },
    synonyms: {
      en: ['Implants', 'Implantology', 'Dental implantology'],
      de: ['Zahnimplantate'],
      es: ['Implantes dentales', 'Implantes'],
      fr: ['Implants dentaires'],
      it: ['Implantologia dentale', 'Impianti dentali'],
      pt: ['Implantes dentários'],
    },
  },
  {
    code: 'periodontics',
    labels: {
      en: 'Periodontics',
      de: 'Parodontologie',
      es: 'Periodoncia',
      fr: 'Parodontologie',
      it: 'Parodontologia',
      pt: 'Periodontologia',
    },
    synonyms: {
      en: ['Periodontology', 'Periodontist'],
      de: ['Parodontitisbehandlung'],
      es: ['Periodontología'],
      fr: ['Parodontie'],
      it: ['Parodontologo'],
      pt: ['Periodontia'],
    },
  },
  {
    code: 'endodontics',
    labels: {
      en: 'Endodontics',
      de: 'Endodontie',
      es: 'Endodoncia',
      fr: 'Endodontie',
      it: 'Endodonzia',
      pt: 'Endodontia',
    },
    synonyms: {
      en: ['Endodontist', 'Root canal treatment'],
      de: ['Wurzelbehandlung'],
      it: ['Endodonzista'],
    },
  },
  {
    code: 'dental-hygiene',
    labels: {
      en: 'Dental hygiene',
      de: 'Zahnprophylaxe',
      es: 'Higiene dental',
      fr: 'Hygiène dentaire',
      it: 'Igiene dentale',
      pt: 'Higiene oral',
    },
    synonyms: {
      en: ['Hygienist', 'Dental hygienist'],
      de: ['Prophylaxe', 'Professionelle Zahnreinigung', 'Dentalhygiene'],
      es: ['Higiene bucodental', 'Limpieza dental'],
      it: ['Igiene orale', 'Igienista dentale'],
      pt: ['Higiene dentária', 'Higienista oral'],
    },
  },
  {
    code: 'cosmetic-dentistry',
    labels: {
      en: 'Cosmetic dentistry',
      de: 'Ästhetische Zahnheilkunde',
      es: 'Estética dental',
      fr: 'Esthétique dentaire',
      it: 'Estetica dentale',
      pt: 'Estética dentária',
    },
    synonyms: {
      en: ['Aesthetic dentistry', 'Teeth whitening'],
      de: ['Ästhetische Zahnmedizin', 'Bleaching'],
      es: ['Blanqueamiento dental', 'Odontología estética'],
      fr: ['Blanchiment dentaire'],
      it: ['Sbiancamento dentale'],
      pt: ['Branqueamento dentário'],
    },
  },
  {
    code: 'pediatric-dentistry',
    labels: {
      en: 'Paediatric dentistry',
      de: 'Kinderzahnheilkunde',
      es: 'Odontopediatría',
      fr: 'Pédodontie',
      it: 'Odontoiatria pediatrica',
      pt: 'Odontopediatria',
    },
    synonyms: {
      en: ['Pediatric dentistry', "Children's dentistry"],
      de: ['Kinderzahnarzt', 'Kinderzahnärztin', 'Kinderzahnmedizin'],
      es: ['Odontopediatra'],
      fr: ['Odontologie pédiatrique', 'Dentiste pour enfants'],
      it: ['Pedodonzia'],
      pt: ['Odontopediatra'],
    },
  },
] as const satisfies ReadonlyArray<SpecialtyEntry>;

export type SpecialtyCode = (typeof SPECIALTY_VOCABULARY)[number]['code'];

/** Every code, in code order: the order of the list endpoint and of the filter's enum. */
export const SPECIALTY_CODES = SPECIALTY_VOCABULARY.map((entry) => entry.code).sort() as [
  SpecialtyCode,
  ...SpecialtyCode[],
];

/**
 * The matching key of a source label: folded (case, accents, spacing) and with every run of anything
 * but letters and digits read as one space, so "HNO-Arzt", "hno arzt" and "Women’s health" (typographic
 * apostrophe) match "HNO Arzt" and "Women's health".
 */
export function labelKey(label: string): string {
  return foldText(label)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Every key of the vocabulary with its code; the first code wins (the spec refuses any clash). */
const CODE_BY_KEY: ReadonlyMap<string, SpecialtyCode> = (() => {
  const byKey = new Map<string, SpecialtyCode>();
  for (const entry of SPECIALTY_VOCABULARY) {
    const synonyms: ReadonlyArray<ReadonlyArray<string>> = Object.values(entry.synonyms);
    for (const label of [...Object.values(entry.labels), ...synonyms.flat()]) {
      const key = labelKey(label);
      if (!byKey.has(key)) byKey.set(key, entry.code);
    }
  }
  return byKey;
})();

/** The code a published label means, or null when it is not in the vocabulary. */
export const specialtyCodeOf: (label: string) => SpecialtyCode | null = boundedMemo(
  (label) => CODE_BY_KEY.get(labelKey(label)) ?? null,
  LABELS_REMEMBERED,
);

/**
 * The codes of a record: its primary type's first, then its specialties' in published order, each
 * once; labels outside the vocabulary add nothing.
 */
export function specialtyCodesOf(doctor: Pick<Doctor, 'primaryType' | 'specialties'>): SpecialtyCode[] {
  const codes = new Set<SpecialtyCode>();
  for (const label of [doctor.primaryType, ...doctor.specialties]) {
    if (label === null) continue;
    const code = specialtyCodeOf(label);
    if (code !== null) codes.add(code);
  }
  return [...codes];
}

const LABELS_BY_CODE: ReadonlyMap<SpecialtyCode, Record<PageLanguage, string>> = new Map(
  SPECIALTY_VOCABULARY.map((entry) => [entry.code, entry.labels]),
);

/** The display label of a code in a page language; undefined for a string that is no code. */
export function specialtyLabel(code: string, lang: PageLanguage): string | undefined {
  return LABELS_BY_CODE.get(code as SpecialtyCode)?.[lang];
}

export function isSpecialtyCode(value: string): value is SpecialtyCode {
  return LABELS_BY_CODE.has(value as SpecialtyCode);
}

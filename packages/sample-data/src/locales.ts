import { base, de, en, en_GB, es, es_MX, fr, it, pt_PT, type LocaleDefinition } from '@faker-js/faker';
import type { CountryCode, LanguageCode } from '@directory/domain';

/**
 * Name templates: {first} {last} {last2} {city} {word} are filled in per place. Dental templates are
 * used when the primary type is the dental one, so "Zahnarztpraxis" never sells general medicine.
 */
export type CountryLocale = {
  dataset: CountryCode;
  isoCountry: string;
  /** Faker locale chain (most specific first); each generator run builds and seeds its own instance. */
  fakerLocales: ReadonlyArray<LocaleDefinition>;
  topLevelDomain: string;
  mailDomains: ReadonlyArray<string>;
  /** Source day labels, Monday first, as the crawled site writes them. */
  dayLabels: readonly [string, string, string, string, string, string, string];
  dentalType: string;
  primaryTypes: ReadonlyArray<string>;
  specialties: ReadonlyArray<string>;
  dentalSpecialties: ReadonlyArray<string>;
  names: ReadonlyArray<string>;
  dentalNames: ReadonlyArray<string>;
  legalNames: ReadonlyArray<string>;
  brandWords: ReadonlyArray<string>;
  /** The language practices of the country nearly always speak. */
  language: LanguageCode;
  /** Languages of large communities and visitors, listed now and then (more often in big cities). */
  otherLanguages: ReadonlyArray<LanguageCode>;
  /** Admin-1 code → languages with the chance a practice there speaks them (Südtirol's German). */
  regionalLanguages: Readonly<Record<string, ReadonlyArray<readonly [LanguageCode, number]>>>;
};

const words = (text: string) => text.split(',').map((word) => word.trim());

export const LOCALES: ReadonlyArray<CountryLocale> = [
  {
    dataset: 'de',
    isoCountry: 'DE',
    fakerLocales: [de, en, base],
    topLevelDomain: 'de',
    mailDomains: ['gmx.de', 'web.de', 't-online.de', 'gmail.com'],
    dayLabels: ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag'],
    dentalType: 'Zahnarzt',
    primaryTypes: words(
      'Allgemeinarzt, Hausarzt, Kinderarzt, Frauenarzt, Augenarzt, Hautarzt, Orthopäde, HNO-Arzt',
    ),
    specialties: words(
      'Allgemeinmedizin, Innere Medizin, Kinderheilkunde, Gynäkologie, Dermatologie, Orthopädie, Sportmedizin, Akupunktur, Reisemedizin, Diabetologie, Naturheilverfahren, Vorsorgeuntersuchungen',
    ),
    dentalSpecialties: words(
      'Implantologie, Kieferorthopädie, Parodontologie, Endodontie, Prophylaxe, Ästhetische Zahnheilkunde',
    ),
    names: [
      'Praxis Dr. {first} {last}',
      'Hausarztpraxis {last}',
      'Gemeinschaftspraxis {last} & {last2}',
      'MVZ {city}',
      'Arztpraxis Dr. med. {last}',
    ],
    dentalNames: ['Zahnarztpraxis Dr. {last}', 'Zahnärzte am {word}', 'Zahnzentrum {city}'],
    legalNames: [
      'Dr. med. {first} {last}',
      '{last} & {last2} GbR',
      'MVZ {city} GmbH',
      'Praxis {last} Partnerschaft mbB',
    ],
    brandWords: words('Markt, Rathaus, Park, Dom, Schloss, Bahnhof'),
    language: 'de',
    otherLanguages: ['tr', 'ru', 'pl', 'ar', 'fr', 'es', 'it'],
    regionalLanguages: {},
  },
  {
    dataset: 'es',
    isoCountry: 'ES',
    fakerLocales: [es, en, base],
    topLevelDomain: 'es',
    mailDomains: ['gmail.com', 'hotmail.es', 'yahoo.es', 'telefonica.net'],
    dayLabels: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'],
    dentalType: 'Dentista',
    primaryTypes: words(
      'Médico general, Pediatra, Ginecólogo, Oftalmólogo, Dermatólogo, Traumatólogo, Fisioterapeuta',
    ),
    specialties: words(
      'Medicina general, Medicina familiar, Pediatría, Ginecología, Dermatología, Traumatología, Fisioterapia, Nutrición, Medicina deportiva, Cardiología, Alergología',
    ),
    dentalSpecialties: words(
      'Implantología, Ortodoncia, Periodoncia, Endodoncia, Estética dental, Odontopediatría',
    ),
    names: ['Consultorio Dr. {first} {last}', 'Centro Médico {city}', 'Clínica {last}', 'Policlínica {word}'],
    dentalNames: ['Clínica Dental {word}', 'Clínica Dental {last}', 'Dentalia {city}'],
    legalNames: ['{last} Salud S.L.', 'Clínica {last} S.L.', 'Centro Médico {city} S.L.P.'],
    brandWords: words('Sonrisa, Salud, Bienestar, Mediterráneo, Sol, Vida'),
    language: 'es',
    otherLanguages: ['fr', 'de', 'it', 'pt', 'ar', 'ro', 'ru', 'zh'],
    regionalLanguages: {},
  },
  {
    dataset: 'fr',
    isoCountry: 'FR',
    fakerLocales: [fr, en, base],
    topLevelDomain: 'fr',
    mailDomains: ['orange.fr', 'free.fr', 'gmail.com', 'laposte.net'],
    dayLabels: ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'],
    dentalType: 'Chirurgien-dentiste',
    primaryTypes: words(
      'Médecin généraliste, Pédiatre, Gynécologue, Ophtalmologue, Dermatologue, Kinésithérapeute',
    ),
    specialties: words(
      'Médecine générale, Pédiatrie, Gynécologie, Dermatologie, Ophtalmologie, Médecine du sport, Homéopathie, Nutrition, Cardiologie, Allergologie',
    ),
    dentalSpecialties: words('Implantologie, Orthodontie, Parodontologie, Endodontie, Esthétique dentaire'),
    names: [
      'Cabinet du Dr {first} {last}',
      'Centre Médical de {city}',
      'Maison de Santé {city}',
      'Cabinet Médical {last}',
    ],
    dentalNames: ['Cabinet Dentaire {last}', 'Centre Dentaire {word}', 'Cabinet Dentaire de {city}'],
    legalNames: ['SELARL {last}', 'SCM {last} et {last2}', 'SELAS Centre Médical {city}'],
    brandWords: words('Sourire, Santé, Horizon, Lumière, République'),
    language: 'fr',
    otherLanguages: ['de', 'es', 'it', 'ar', 'pt'],
    regionalLanguages: {},
  },
  {
    dataset: 'gb',
    isoCountry: 'GB',
    fakerLocales: [en_GB, en, base],
    topLevelDomain: 'co.uk',
    mailDomains: ['gmail.com', 'btinternet.com', 'outlook.com', 'nhs.net'],
    dayLabels: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
    dentalType: 'Dentist',
    primaryTypes: words(
      'General practitioner, Paediatrician, Gynaecologist, Optometrist, Dermatologist, Physiotherapist',
    ),
    specialties: words(
      "General practice, Family medicine, Paediatrics, Women's health, Dermatology, Physiotherapy, Sports medicine, Travel health, Minor surgery, Diabetes care",
    ),
    dentalSpecialties: words(
      'Implants, Orthodontics, Periodontics, Endodontics, Cosmetic dentistry, Hygienist',
    ),
    names: [
      '{city} Medical Centre',
      "Dr {first} {last}'s Surgery",
      'The {word} Surgery',
      '{last} Health Centre',
    ],
    dentalNames: ['{last} Dental Practice', '{city} Dental Care', 'The {word} Dental Clinic'],
    legalNames: ['{last} Healthcare Ltd', '{last} & {last2} LLP', '{city} Medical Services Ltd'],
    brandWords: words('Abbey, Park, Riverside, Castle, Market, Bridge'),
    language: 'en',
    otherLanguages: ['pl', 'ur', 'hi', 'ar', 'fr', 'es'],
    regionalLanguages: {},
  },
  {
    dataset: 'it',
    isoCountry: 'IT',
    fakerLocales: [it, en, base],
    topLevelDomain: 'it',
    mailDomains: ['libero.it', 'gmail.com', 'virgilio.it', 'alice.it'],
    dayLabels: ['lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato', 'domenica'],
    dentalType: 'Dentista',
    primaryTypes: words(
      'Medico di base, Pediatra, Ginecologo, Oculista, Dermatologo, Ortopedico, Fisioterapista',
    ),
    specialties: words(
      'Medicina generale, Pediatria, Ginecologia, Dermatologia, Ortopedia, Fisioterapia, Medicina dello sport, Nutrizione, Cardiologia, Agopuntura',
    ),
    dentalSpecialties: words(
      'Implantologia, Ortodonzia, Parodontologia, Endodonzia, Igiene dentale, Estetica dentale',
    ),
    names: [
      'Studio Medico {last}',
      'Studio Medico Dr. {first} {last}',
      'Poliambulatorio {city}',
      'Centro Medico {word}',
    ],
    dentalNames: [
      'Studio Dentistico Dr. {last}',
      'Centro Odontoiatrico {word}',
      'Studio Dentistico {last} e {last2}',
    ],
    legalNames: ['{last} S.r.l.', 'Studio Associato {last} e {last2}', 'Poliambulatorio {city} S.r.l.'],
    brandWords: words('Sorriso, Salute, Aurora, Duomo, San Marco'),
    language: 'it',
    otherLanguages: ['fr', 'de', 'es', 'ro', 'sq', 'ar'],
    regionalLanguages: { '17': [['de', 0.7]], '19': [['fr', 0.6]] },
  },
  {
    dataset: 'mx',
    isoCountry: 'MX',
    fakerLocales: [es_MX, es, en, base],
    topLevelDomain: 'com.mx',
    mailDomains: ['gmail.com', 'hotmail.com', 'prodigy.net.mx', 'outlook.com'],
    dayLabels: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'],
    dentalType: 'Dentista',
    primaryTypes: words('Médico general, Pediatra, Ginecólogo, Oftalmólogo, Dermatólogo, Traumatólogo'),
    specialties: words(
      'Medicina general, Medicina familiar, Pediatría, Ginecología, Dermatología, Traumatología, Nutrición, Cardiología, Medicina interna',
    ),
    dentalSpecialties: words(
      'Ortodoncia, Implantes dentales, Endodoncia, Odontopediatría, Blanqueamiento dental',
    ),
    names: [
      'Consultorio Médico Dr. {first} {last}',
      'Centro Médico {city}',
      'Clínica {last}',
      'Hospital {word}',
    ],
    dentalNames: ['Clínica Dental {word}', 'Consultorio Dental {last}'],
    legalNames: ['Servicios Médicos {last} S.C.', '{last} S.A. de C.V.', 'Clínica {word} S. de R.L.'],
    brandWords: words('Sonrisa, Ángeles, San José, Guadalupe, Esperanza'),
    language: 'es',
    otherLanguages: ['fr', 'de', 'zh'],
    regionalLanguages: {},
  },
  {
    dataset: 'pt',
    isoCountry: 'PT',
    fakerLocales: [pt_PT, en, base],
    topLevelDomain: 'pt',
    mailDomains: ['sapo.pt', 'gmail.com', 'hotmail.com', 'clix.pt'],
    dayLabels: [
      'segunda-feira',
      'terça-feira',
      'quarta-feira',
      'quinta-feira',
      'sexta-feira',
      'sábado',
      'domingo',
    ],
    dentalType: 'Dentista',
    primaryTypes: words(
      'Médico de família, Pediatra, Ginecologista, Oftalmologista, Dermatologista, Fisioterapeuta',
    ),
    specialties: words(
      'Medicina geral e familiar, Pediatria, Ginecologia, Dermatologia, Ortopedia, Fisioterapia, Nutrição, Cardiologia, Medicina desportiva',
    ),
    dentalSpecialties: words('Implantologia, Ortodontia, Periodontologia, Endodontia, Higiene oral'),
    names: [
      'Clínica Dr. {first} {last}',
      'Consultório Médico {last}',
      'Centro Médico de {city}',
      'Clínica {word}',
    ],
    dentalNames: ['Clínica Dentária {word}', 'Clínica Dentária {last}', 'Centro Dentário de {city}'],
    legalNames: ['{last}, Lda.', 'Clínica {last} Unipessoal, Lda.', 'Centro Médico {city}, Lda.'],
    brandWords: words('Sorriso, Saúde, Atlântico, Tejo, Bem-Estar'),
    language: 'pt',
    otherLanguages: ['es', 'fr', 'uk', 'ro', 'de'],
    regionalLanguages: {},
  },
];

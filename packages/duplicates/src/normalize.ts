import { doubleMetaphone } from 'double-metaphone';
import { getDomain } from 'tldts';
import { foldText, normalizePhone } from '@directory/domain';

/** What the matcher reads of one record: a served Doctor record or a sample crawl gives the same. */
export type MatchInput = {
  id: string;
  name: string | null;
  /** ISO 3166-1 alpha-2 of the address (phones in national notation are read in this country). */
  country: string | null;
  city: string | null;
  street: string | null;
  postalCode: string | null;
  location: { latitude: number; longitude: number } | null;
  /** Every phone number, primary first, in any notation. */
  phones: ReadonlyArray<string>;
  website: string | null;
};

/** A record reduced to what is compared: every field folded so that notations no longer differ. */
export type MatchRecord = {
  id: string;
  country: string;
  /** The name's distinctive words (titles, practice words and the city left out), space-separated. */
  distinctiveName: string;
  /** The folded name without titles: compared when a name has no distinctive word ("Centro Médico Madrid"). */
  fullName: string;
  /** Double Metaphone keys of the distinctive words of three letters or more. */
  phoneticKeys: string[];
  /** E.164, without repeats. */
  phones: string[];
  /** The website's registrable domain ("praxis-mueller.de"), null without one or on a shared platform. */
  domain: string | null;
  /** Street name words with their type word written out, joined without spaces ("rilkestrasse"). */
  streetName: string;
  /** The house number as written, folded ("36c"); '' without one. */
  houseNumber: string;
  /** Postal code uppercased with spaces and dashes removed; '' without one. */
  postalCode: string;
  city: string;
  location: { latitude: number; longitude: number } | null;
};

// Titles and degrees, folded: a source writes "Dr.", "Dra.", "Dott.", "Prof. Dr. med." or nothing.
const TITLES = new Set([
  'dr',
  'dra',
  'dres',
  'dott',
  'dottssa',
  'dottoressa',
  'dottore',
  'prof',
  'med',
  'dent',
  'doctor',
  'doctora',
  'doutor',
  'doutora',
  'mr',
  'mrs',
  'ms',
]);

// Words that say what kind of practice it is, not which: "Praxis", "Clínica Dental", "Medical Centre"...
const PRACTICE_WORDS = new Set(
  (
    'praxis hausarztpraxis gemeinschaftspraxis arztpraxis zahnarztpraxis zahnarzte zahnarzt zahnzentrum mvz am ' +
    'gbr mbb gmbh partnerschaft consultorio centro medico medica clinica policlinica dental dentalia hospital ' +
    'sl slp sa de del la las los el y e et du le les cabinet centre medical maison sante dentaire selarl scm ' +
    'selas the health surgery practice care clinic studio dentistico poliambulatorio odontoiatrico dentaria ' +
    'dentario consultorio and'
  ).split(' '),
);

// Street type words and their abbreviations, folded, to one spelling each.
const STREET_WORDS: Readonly<Record<string, string>> = {
  str: 'strasse',
  strasse: 'strasse',
  c: 'calle',
  cl: 'calle',
  calle: 'calle',
  av: 'avenida',
  avda: 'avenida',
  avenida: 'avenida',
  avenu: 'avenida', // "avenue" once "ue" is read as an umlaut (words())
  carr: 'carretera',
  ctra: 'carretera',
  carretera: 'carretera',
  v: 'via',
  via: 'via',
  vle: 'viale',
  viale: 'viale',
  pzza: 'piazza',
  pza: 'piazza',
  piazza: 'piazza',
  r: 'rua',
  rua: 'rua',
  pc: 'praca',
  praca: 'praca',
  bd: 'boulevard',
  bld: 'boulevard',
  blvd: 'boulevard',
  bulevar: 'boulevard',
  boulevard: 'boulevard',
  rd: 'road',
  road: 'road',
  st: 'street',
  street: 'street',
  close: 'close',
};

// Hosts many practices share (a profile page, a site builder): their domain says nothing about which one.
const SHARED_DOMAINS = new Set([
  'facebook.com',
  'instagram.com',
  'google.com',
  'business.site',
  'wixsite.com',
  'jimdo.com',
  'jimdofree.com',
  'doctolib.de',
  'doctolib.fr',
  'doctolib.it',
  'jameda.de',
  'doctoralia.es',
  'doctoralia.com.mx',
  'miodottore.it',
  'nhs.uk',
]);

/** Folded words: letters and digits only, "ue"/"oe"/"ae" spelt as the umlaut they stand for. */
export function words(text: string): string[] {
  const folded = foldText(text);
  const out: string[] = [];
  let word = '';
  for (const char of folded) {
    if ((char >= 'a' && char <= 'z') || (char >= '0' && char <= '9')) word += char;
    else if (word !== '') {
      out.push(word);
      word = '';
    }
  }
  if (word !== '') out.push(word);
  return out.map(unTransliterate);
}

/** "mueller" → "muller", as "Müller" folds: both spellings of an umlaut meet. */
function unTransliterate(word: string): string {
  return word.includes('e') ? word.replace(/([aou])e/g, '$1') : word;
}

/** The E.164 numbers among `phones`, read in `country` when written nationally. */
export function normalizePhones(phones: ReadonlyArray<string>, country: string | null): string[] {
  const out: string[] = [];
  for (const phone of phones) {
    const e164 = normalizePhone(phone, country);
    if (e164 !== null && !out.includes(e164)) out.push(e164);
  }
  return out;
}

/** The registrable domain of a website ("https://www.praxis.co.uk/x" → "praxis.co.uk"); null on a shared host. */
export function websiteDomain(website: string | null): string | null {
  if (website === null) return null;
  const domain = getDomain(website);
  if (domain === null || SHARED_DOMAINS.has(domain)) return null;
  return domain;
}

/** Street name (type word written out, words joined) and house number. */
export function normalizeStreet(street: string | null): { streetName: string; houseNumber: string } {
  if (street === null) return { streetName: '', houseNumber: '' };
  let name = '';
  let houseNumber = '';
  for (const word of words(street.replace(/v\.le\b/gi, 'viale ').replace(/p\.zza\b/gi, 'piazza '))) {
    if (/\d/.test(word)) {
      houseNumber += word;
      continue;
    }
    if (word.endsWith('str') && word.length > 3) name += `${word.slice(0, -3)}strasse`;
    else name += STREET_WORDS[word] ?? word;
  }
  return { streetName: name, houseNumber };
}

/** The name's distinctive words and its folded whole. */
export function normalizeName(
  name: string | null,
  city: string | null,
): { distinctiveName: string; fullName: string; distinctive: string[] } {
  const all = words(name ?? '');
  const cityWords = new Set(words(city ?? ''));
  const distinctive = all.filter(
    (word) => !TITLES.has(word) && !PRACTICE_WORDS.has(word) && !cityWords.has(word) && word.length > 1,
  );
  const fullName = all.filter((word) => !TITLES.has(word)).join(' ');
  return { distinctiveName: distinctive.join(' '), fullName, distinctive };
}

/** Everything the matcher compares of one record, computed once. */
export function normalizeRecord(input: MatchInput): MatchRecord {
  const country = (input.country ?? '').toUpperCase();
  const name = normalizeName(input.name, input.city);
  const phoneticKeys: string[] = [];
  for (const word of name.distinctive) {
    if (word.length < 3) continue;
    const [primary] = doubleMetaphone(word);
    if (primary !== '' && !phoneticKeys.includes(primary)) phoneticKeys.push(primary);
  }
  return {
    id: input.id,
    country,
    distinctiveName: name.distinctiveName,
    fullName: name.fullName,
    phoneticKeys,
    phones: normalizePhones(input.phones, country === '' ? null : country),
    domain: websiteDomain(input.website),
    ...normalizeStreet(input.street),
    postalCode: (input.postalCode ?? '').toUpperCase().replace(/[\s-]/g, ''),
    city: words(input.city ?? '').join(' '),
    location: input.location,
  };
}

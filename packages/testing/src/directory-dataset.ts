import { DOCTOR_KEYS, type PlaceState } from '@directory/domain';
import { placeState } from './place-fixtures.js';

/**
 * A small directory: named records for the query semantics (four with API 1.3 patient attributes, which
 * only `fields` and the 1.3 filters show), a crowd of generated German records for paging, and places
 * that must never be served (suppressed, closed, unpublished: tombstones).
 */
export function testDataset(): { states: PlaceState[]; servedGermanIds: string[] } {
  const named: PlaceState[] = [
    placeState({
      id: 'de-mueller',
      name: 'Praxis Dr. Müller',
      specialties: ['Allgemeinmedizin', 'Sportmedizin'],
      phone: '+49 1512 3456789',
      phoneType: 'mobile',
      whatsappEligible: true,
      verified: true,
      profileSlug: 'praxis-dr-mueller',
      languages: ['de', 'en'],
      acceptingNewPatients: true,
      wheelchairAccessible: true,
      insurance: ['gkv', 'pkv'],
    }),
    placeState({
      id: 'de-schmidt',
      name: 'Zahnarztpraxis Schmidt',
      primaryType: 'Zahnarzt',
      phone: '+49 30 1234567',
      phoneType: 'landline',
      profileSlug: 'zahnarztpraxis-schmidt',
      // As a source may write them: case folded, an unknown code dropped; wheelchair access not said.
      languages: ['DE', 'tr', 'Klingon'],
      acceptingNewPatients: false,
      insurance: ['PKV'],
    }),
    placeState({
      id: 'de-orthopaedie',
      name: 'MÜLLER & Söhne Orthopädie',
      city: 'Hamburg',
      citySlug: 'hamburg',
      verified: true,
      profileSlug: 'mueller-soehne-orthopaedie',
      languages: ['de'],
      acceptingNewPatients: null,
      wheelchairAccessible: false,
      insurance: ['gkv', 'aok'],
    }),
    placeState({
      id: 'es-sanchez',
      name: 'Clínica Dental Sánchez',
      country: 'es',
      city: 'Madrid',
      citySlug: 'madrid',
      primaryType: 'Dentista',
      profileSlug: 'clinica-dental-sanchez',
      languages: ['es', 'en'],
      acceptingNewPatients: true,
      // Portugal's `adse` and Germany's `gkv` are no Spanish codes: dropped.
      insurance: ['sns', 'muface', 'adse', 'gkv'],
    }),
    placeState({
      id: 'it-rossi',
      name: 'Studio Medico Rossi',
      country: 'it',
      city: 'Roma',
      citySlug: 'roma',
    }),
    placeState({
      id: 'pt-silva',
      name: 'Clínica São João',
      country: 'pt',
      city: 'Lisboa',
      citySlug: 'lisboa',
    }),
  ];
  const crowd: PlaceState[] = [];
  for (let index = 0; index < 57; index += 1) {
    const number = String(index).padStart(3, '0');
    crowd.push(
      placeState({
        id: `de-crowd-${number}`,
        // Mixed case and accents, and duplicate names, so order must come from folded name then id.
        name:
          index % 5 === 0
            ? 'Ärztehaus Mitte'
            : `${index % 2 === 0 ? 'praxis' : 'PRAXIS'} Nummer ${(57 - index) % 23}`,
        citySlug: index % 3 === 0 ? 'muenchen' : 'berlin',
        city: index % 3 === 0 ? 'München' : 'Berlin',
        verified: index % 4 === 0,
        phone: index % 2 === 0 ? '+49 1512 3456789' : null,
        phoneType: index % 2 === 0 ? 'mobile' : null,
        whatsappEligible: index % 2 === 0,
      }),
    );
  }
  const hidden: PlaceState[] = [
    placeState({
      id: 'de-suppressed',
      name: 'Praxis Unterdrückt',
      suppressed: true,
      profileSlug: 'praxis-unterdrueckt',
    }),
    placeState({
      id: 'de-closed',
      name: 'Praxis Geschlossen',
      closed: true,
      profileSlug: 'praxis-geschlossen',
    }),
    placeState({
      id: 'de-unpublished',
      name: 'Praxis Zurückgezogen',
      published: false,
      profileSlug: 'praxis-zurueck',
    }),
  ];
  const servedGermanIds = [...named, ...crowd]
    .filter((state) => state.publication?.country === 'de')
    .map((state) => state.placeId);
  return { states: [...named, ...crowd, ...hidden], servedGermanIds };
}

export const HIDDEN_IDS = ['de-suppressed', 'de-closed', 'de-unpublished'];
export const SORTED_DOCTOR_KEYS = [...DOCTOR_KEYS].sort();

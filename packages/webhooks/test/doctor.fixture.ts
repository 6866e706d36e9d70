import type { Doctor } from '@directory/domain';

/** A whole record with every allowlisted field, some with characters JSON must escape. */
export const WHOLE_DOCTOR: Doctor = {
  id: 'ChIJ-payload',
  name: 'Praxis Dr. Müller "Zahn"',
  legalName: null,
  address: { street: 'Hauptstraße 1', city: 'Berlin', state: null, postalCode: '10115', country: 'DE' },
  location: { latitude: 52.52, longitude: 13.405 },
  phone: '+493012345678',
  phoneType: 'landline',
  additionalPhones: [{ number: '+4915112345678', type: 'mobile' }],
  email: 'praxis@example.com',
  website: 'https://praxis.example/',
  googleMapsUrl: null,
  primaryType: 'Dentist',
  specialties: ['Kieferorthopädie'],
  rating: 4.5,
  reviewCount: 12,
  whatsappEligible: false,
  verified: true,
  workingHours: { Montag: [{ open: '08:00', close: '12:00' }] },
  profileUrl: 'https://site.example/en/doctors/de/berlin/praxis-mueller',
};

import { describe, expect, it } from 'vitest';
import { renderSpecialties } from '../src/tools/specialty-text.js';

describe('renderSpecialties', () => {
  it('lists code and label, with counts when the list has them, and says how to use a code', () => {
    expect(
      renderSpecialties({
        specialties: [
          { code: 'dentistry', label: 'Zahnmedizin', count: 12 },
          { code: 'pediatrics', label: 'Kinderheilkunde', count: 1 },
        ],
      }),
    ).toBe(
      [
        '2 specialties:',
        '- dentistry: Zahnmedizin (12 records)',
        '- pediatrics: Kinderheilkunde (1 record)',
        'Pass a code as the specialty argument of search_doctors.',
      ].join('\n'),
    );
    expect(renderSpecialties({ specialties: [{ code: 'dentistry', label: 'Dentistry' }] })).toContain(
      '\n- dentistry: Dentistry\n',
    );
  });

  it('says so when a dataset has none', () => {
    expect(renderSpecialties({ specialties: [] })).toMatch(/^No specialties/);
  });
});

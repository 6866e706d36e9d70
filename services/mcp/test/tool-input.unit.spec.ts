import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { searchToolInputSchema } from '@directory/domain';
import { advertisedInputSchema } from '../src/tools/tool-input.js';

describe('advertisedInputSchema', () => {
  const advertised = advertisedInputSchema(searchToolInputSchema);

  it("shows the domain schema's fields, rules and descriptions, closed to other arguments", () => {
    const shown = z.toJSONSchema(advertised, { io: 'input', target: 'draft-7' }) as {
      properties: Record<string, { description?: string }>;
      required: string[];
      additionalProperties: unknown;
    };
    const domain = z.toJSONSchema(searchToolInputSchema, { io: 'input', target: 'draft-7' }) as {
      properties: Record<string, unknown>;
    };
    expect(shown.properties).toEqual(domain.properties);
    expect(shown.required).toEqual(['country']);
    expect(shown.additionalProperties).toBe(false);
    expect(shown.properties.country?.description).toMatch(/live data/);
  });

  it('lets every argument object through unchanged, so the domain reports the reasons', () => {
    const input = { country: 'xx', limit: 'ten', cursor: null, colour: 'blue' };
    expect(advertised.parse(input)).toEqual(input);
  });
});

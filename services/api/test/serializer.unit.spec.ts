import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler, writerSchema } from '../src/serializer.js';

function writerFor(schema: z.ZodType): (data: unknown) => string {
  return serializerCompiler({ schema, method: 'GET', url: '/', httpStatus: '200' }) as (
    data: unknown,
  ) => string;
}

const point = z.strictObject({ latitude: z.number(), longitude: z.number() });
const entry = z.looseObject({
  id: z.string(),
  location: point.nullable(),
  hours: z.record(z.string(), z.array(z.string())).nullable(),
  name: z.string().nullable(),
});

describe('response writer', () => {
  it('turns a nullable object into one type list instead of an anyOf searched at run time', () => {
    const json = JSON.stringify(writerSchema(z.toJSONSchema(entry, { target: 'draft-7' })));
    expect(json).not.toContain('anyOf');
    expect(json).toContain('"type":["object","null"]');
  });

  it('writes exactly what JSON.stringify writes for declared fields, null or not', () => {
    const write = writerFor(z.object({ entries: z.array(entry) }));
    const data = {
      entries: [
        { id: 'a', location: { latitude: 1.5, longitude: -2 }, hours: { Monday: ['08:00'] }, name: 'Ä "q"' },
        { id: 'b', location: null, hours: null, name: null },
      ],
    };
    expect(write(data)).toBe(JSON.stringify(data));
  });

  it('never writes an undeclared field, even where the published schema is open', () => {
    const write = writerFor(entry);
    const written = JSON.parse(
      write({
        id: 'a',
        location: { latitude: 1, longitude: 2, internal: 1 },
        hours: null,
        name: null,
        secret: 's',
      }),
    ) as Record<string, unknown>;
    expect(written).toEqual({ id: 'a', location: { latitude: 1, longitude: 2 }, hours: null, name: null });
  });

  it('still refuses a record without a required field', () => {
    expect(() => writerFor(entry)({ location: null, hours: null, name: null })).toThrow(/id/);
  });
});

import { describe, expect, it } from 'vitest';
import { generateTypes, readApiDocument, readCommittedTypes } from './support/openapi-source.js';

describe('src/generated/openapi.ts', () => {
  it('is what openapi-typescript makes of the API document now (else: npm run -w @directory/client generate)', async () => {
    const fresh = await generateTypes(await readApiDocument());
    expect(
      readCommittedTypes() === fresh,
      'stale: run `npm run -w @directory/client generate` and commit',
    ).toBe(true);
    // openapi-typescript over the whole document: about 2 s alone, more when both cores are busy.
  }, 30_000);
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { buildOpenApiDocument } from '../../../../infra/openapi/document.js';

/** The committed types, generated from the document by `npm run -w @directory/client generate`. */
export const GENERATED_TYPES_FILE = fileURLToPath(new URL('../../src/generated/openapi.ts', import.meta.url));

/** The API's OpenAPI document as `/openapi.json` serves it, built without any server. */
export const readApiDocument = buildOpenApiDocument;

const BANNER = `// Generated from the API's OpenAPI document by openapi-typescript: do not edit.
// Regenerate with \`npm run -w @directory/client generate\`; test/generated-types.unit.spec.ts fails while
// this file is stale.
/* eslint-disable @typescript-eslint/consistent-type-definitions -- openapi-typescript writes \`operations\` as an interface */
`;

/** The TypeScript types of the document, as the committed file should hold them. */
export async function generateTypes(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(document as unknown as OpenAPI3, {
    alphabetize: false,
    exportType: true,
  });
  // Formatted as the repository formats code, so the committed file passes the format check as written.
  const options = await resolveConfig(GENERATED_TYPES_FILE);
  return format(BANNER + astToString(ast), { ...options, filepath: GENERATED_TYPES_FILE });
}

export function readCommittedTypes(): string {
  return readFileSync(GENERATED_TYPES_FILE, 'utf8');
}

import { writeFileSync } from 'node:fs';
import { GENERATED_TYPES_FILE, generateTypes, readApiDocument } from './openapi-source.js';

// `npm run -w @directory/client generate`: rewrites src/generated/openapi.ts from the API's current document.
writeFileSync(GENERATED_TYPES_FILE, await generateTypes(await readApiDocument()));
console.log(`wrote ${GENERATED_TYPES_FILE}`);

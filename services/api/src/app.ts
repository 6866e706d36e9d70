import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import {
  baseServerOptions,
  installErrorHandling,
  installRequestLogging,
  registerHttpCaching,
  type LogOptions,
} from '@directory/http-server';
import { API_KEY_HEADERS, registerKeyedAccess } from '@directory/keyed-access';
import { searchServiceProblemMappings, type SearchServiceDependencies } from '@directory/search';
import { serializerCompiler } from './serializer.js';
import { registerOpenApi } from './plugins/openapi.plugin.js';
import { doctorRoutes } from './routes/doctors/doctors.routes.js';
import { keyRoutes } from './routes/key/key.routes.js';
import { changeRoutes } from './routes/changes/changes.routes.js';
import { exportRoutes } from './routes/exports/exports.routes.js';
import {
  DEFAULT_EXPORT_LIMITS,
  createProcessSlots,
  type ExportLimits,
} from './routes/exports/export-limits.js';
import { cityRoutes } from './routes/cities/cities.routes.js';
import { specialtyRoutes } from './routes/specialties/specialties.routes.js';
import { suggestRoutes } from './routes/suggest/suggest.routes.js';
import { facetRoutes } from './routes/facets/facets.routes.js';
import { datasetRoutes } from './routes/datasets/datasets.routes.js';
import { problemRoutes } from './routes/problems/problems.routes.js';
import {
  FHIR_PREFIX,
  installFhirErrors,
  installFhirNotFound,
  keyedFhirRoutes,
  openFhirRoutes,
} from './routes/fhir/fhir.routes.js';
import { bulkExportRoutes } from './routes/fhir/bulk-export.routes.js';
import { OPENAPI_VERSION } from './plugins/openapi.plugin.js';

/**
 * Everything the API talks to, built by the caller (server.ts, or a test with its own DB/prefix/alias):
 * the keyed-access stores (redisPrefix is config REDIS_PREFIX) and the datasets of the key modes.
 */
export type AppDependencies = SearchServiceDependencies & {
  /** Signs the changes feed's cursors (config CURSOR_SECRET, with a MAC context apart from search cursors). */
  cursorSecret: string;
  /** The public website's origin (config SITE_ORIGIN), named in the OpenAPI document as its contact. */
  siteOrigin?: string;
  /** The limits of exports (config EXPORTS_*); the defaults of DEFAULT_EXPORT_LIMITS where not given. */
  exportLimits?: Partial<ExportLimits>;
};

export type AppOptions = LogOptions;

// Long enough for a URL-encoded 2048-character profile URL (every character may take 3 bytes encoded).
const MAX_PARAM_LENGTH = 8192;
// The request line and headers Node accepts (its default is 16 KiB): room for a batch get's `ids` at its
// limit (MAX_IDS_LENGTH characters, up to three bytes each URL-encoded) and ordinary headers. `ids`
// longer than its limit is a 400 naming it; a request head past this is a 431 problem (server-options).
const MAX_HEADER_SIZE = 64 * 1024;

/** Builds the API (not listening): external plugins → app plugins → routes, as in fastify/demo. */
export async function buildApp(deps: AppDependencies, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...baseServerOptions(options, deps.trustedProxies),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    http: { maxHeaderSize: MAX_HEADER_SIZE },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app, {
    notFoundDetail: 'There is no such resource; see /openapi.json for the routes.',
    mappings: searchServiceProblemMappings,
  });
  installRequestLogging(app, options.httpMetrics);

  await registerOpenApi(app, deps.siteOrigin === undefined ? {} : { siteOrigin: deps.siteOrigin });
  await app.register(problemRoutes);

  // One keyed access for every keyed route of the process, /api/v1 and FHIR's interactions alike: its
  // database clock (and that clock's metric), key caches and usage flush exist once.
  await app.register(async (keyed) => {
    // First, so its onSend hook turns a matching 200 into a 304 before the rate limit's hook gives
    // that request's quota back. Answers depend on the key: private, varying on its headers.
    registerHttpCaching(keyed, { vary: API_KEY_HEADERS });
    registerKeyedAccess(keyed, deps);
    // Every record route reads the dataset of the key's mode (live or sandbox: docs/api.md "Sandbox").
    const { datasets } = deps;
    // Exports and FHIR Bulk Data downloads read the store alike: they share this process's slots.
    const exportLimits = { ...DEFAULT_EXPORT_LIMITS, ...deps.exportLimits };
    const processSlots = createProcessSlots(exportLimits.maxConcurrent);
    await keyed.register(
      async (v1) => {
        await v1.register(keyRoutes);
        await v1.register(doctorRoutes, { datasets });
        await v1.register(changeRoutes, { datasets, cursorSecret: deps.cursorSecret });
        await v1.register(exportRoutes, {
          datasets,
          cursorSecret: deps.cursorSecret,
          redis: deps.redis,
          redisPrefix: deps.redisPrefix,
          limits: exportLimits,
          processSlots,
        });
        await v1.register(cityRoutes, { datasets });
        await v1.register(specialtyRoutes, { datasets });
        await v1.register(suggestRoutes, { datasets });
        await v1.register(facetRoutes, { datasets });
        await v1.register(datasetRoutes, { datasets });
      },
      { prefix: '/api/v1' },
    );
    // The same records as FHIR R4 (docs/fhir.md), behind the same keyed access, quotas and sandbox
    // routing as /api/v1; its errors as OperationOutcome.
    await keyed.register(
      async (fhir) => {
        installFhirErrors(fhir, searchServiceProblemMappings);
        await fhir.register(keyedFhirRoutes, {
          datasets,
          siteOrigin: deps.siteOrigin ?? '',
          softwareVersion: OPENAPI_VERSION,
          mappings: searchServiceProblemMappings,
          cursorSecret: deps.cursorSecret,
        });
        await fhir.register(bulkExportRoutes, {
          datasets,
          siteOrigin: deps.siteOrigin ?? '',
          redis: deps.redis,
          redisPrefix: deps.redisPrefix,
          limits: exportLimits,
          processSlots,
        });
      },
      { prefix: FHIR_PREFIX },
    );
  });

  // FHIR's open part: the metadata, and the OperationOutcome of a path it does not have.
  await app.register(
    async (fhir) => {
      installFhirErrors(fhir, searchServiceProblemMappings);
      installFhirNotFound(fhir);
      await fhir.register(openFhirRoutes, {
        siteOrigin: deps.siteOrigin ?? '',
        softwareVersion: OPENAPI_VERSION,
      });
    },
    { prefix: FHIR_PREFIX },
  );

  await app.ready();
  return app;
}

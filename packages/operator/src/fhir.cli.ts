// `directory fhir <doctorId|profileUrl|fhirId> [--dataset XX] [--sandbox]`: print a served record's FHIR
// resources (Organization, Location, HealthcareService) as GET /fhir/R4/{type}/{id} answers them, for
// support. Exit codes: docs/operations.md, "Exit codes"; the mapping: docs/fhir.md.
import { Command, Option } from 'commander';
import { loadConfigOrExit, sandboxStoreNames } from '@directory/config';
import { COUNTRY_CODES, parseProfileUrl } from '@directory/domain';
import {
  DIRECTORY_RESOURCE_TYPES,
  placeIdOf,
  resourceOf,
  type DirectoryResource,
  type ServedRecord,
} from '@directory/fhir';
import { createDirectory } from '@directory/search';
import { createSearchClient } from '@directory/search-index';
import { column, jsonLine } from './operator-text.js';

/** The record's resources in type order, each as its read answers it (none when it has no FHIR id). */
export function fhirResourcesOf(record: ServedRecord, siteOrigin: string): DirectoryResource[] {
  return DIRECTORY_RESOURCE_TYPES.map((type) => resourceOf(type, record, { siteOrigin })).filter(
    (resource) => resource !== null,
  );
}

/**
 * A FHIR id (`pl.abc`, or `Location/pl.abc` as a FHIR client reports it) as the API's doctorId; anything
 * else (a place id or a profile URL) as it is. `.` occurs in no place id and `/` in none either.
 */
export function doctorIdOf(argument: string): string {
  const slash = argument.indexOf('/');
  const type = slash === -1 ? '' : argument.slice(0, slash);
  const id = (DIRECTORY_RESOURCE_TYPES as readonly string[]).includes(type)
    ? argument.slice(slash + 1)
    : argument;
  if (!id.includes('.') || id.includes(':')) return argument;
  const placeId = placeIdOf(id);
  return placeId.ok ? placeId.value : argument;
}

/** `directory fhir …`: `argv` is what follows the command's name. */
export async function runFhirCommand(argv: string[]): Promise<void> {
  const program = new Command()
    .name('fhir')
    .description(
      "Print a served record's FHIR R4 resources, Organization, Location and HealthcareService, one JSON " +
        'document per line, each as GET /fhir/R4/{type}/{id} answers it. The record is read from the search ' +
        'index as the API reads it. Exit 1 when no served record has that id.',
    )
    .argument('<doctorId>', "the record's id, its profile URL, or a FHIR id (pl.abc or Location/pl.abc)")
    .addOption(
      new Option('--dataset <code>', 'only a record of this dataset (else exit 1)').choices([
        ...COUNTRY_CODES,
      ]),
    )
    .option('--sandbox', "read the sandbox's index (what dk_test_ keys read) instead of the live one")
    .showHelpAfterError()
    // --help exits 0 here; a usage error is thrown, for `directory` to exit 2.
    .exitOverride((error) => {
      if (error.exitCode !== 0) throw error;
    });
  program.parse(argv, { from: 'user' });
  const [argument = ''] = program.args;
  const options = program.opts<{ dataset?: string; sandbox?: boolean }>();

  const config = loadConfigOrExit();
  const client = createSearchClient(config.ELASTICSEARCH_URL, {
    timeoutMs: config.ELASTICSEARCH_TIMEOUT_MS,
    maxRetries: 1,
  });
  const directory = createDirectory({
    client,
    alias: options.sandbox ? sandboxStoreNames(config).alias : config.ELASTICSEARCH_INDEX,
    siteOrigin: config.SITE_ORIGIN,
    cursorSecret: config.CURSOR_SECRET,
  });
  const notFound = (reason: string) => {
    process.stderr.write(`[fhir] ${column(argument, 200)}: ${reason}\n`);
    process.exitCode = 1;
  };
  try {
    // The API's own resolution of a doctorId (a place id or a canonical profile URL), then its FHIR read.
    const found = await directory.getDoctor(doctorIdOf(argument));
    if (found.status === 'invalid') {
      process.stderr.write(`[fhir] ${column(argument, 200)}: ${column(found.reason)}\n`);
      process.exitCode = 2;
      return;
    }
    if (found.status === 'not-found') return notFound('no served record has this id or profile URL');
    const [record] = await directory.getVersionedRecords([found.doctor.id]);
    if (record === undefined) return notFound('no served record has this id or profile URL');
    // The dataset is the one the record is published in: its profile URL's.
    const profile = parseProfileUrl(record.doctor.profileUrl, config.SITE_ORIGIN);
    if (options.dataset !== undefined && (!profile.ok || profile.value.country !== options.dataset))
      return notFound(`the record is not in dataset ${options.dataset}`);
    const resources = fhirResourcesOf(record, config.SITE_ORIGIN);
    if (resources.length === 0) return notFound('the record has no FHIR id (its id is over 64 characters)');
    for (const resource of resources) process.stdout.write(jsonLine(resource));
  } finally {
    await client.close();
  }
}

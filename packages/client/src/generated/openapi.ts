// Generated from the API's OpenAPI document by openapi-typescript: do not edit.
// Regenerate with `npm run -w @directory/client generate`; test/generated-types.unit.spec.ts fails while
// this file is stale.
/* eslint-disable @typescript-eslint/consistent-type-definitions -- openapi-typescript writes `operations` as an interface */
export type paths = {
  '/api/v1/key': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Validate the current API key
     * @description Returns the metadata of the key the request was made with.
     */
    get: operations['getKey'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/doctors': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Search published doctors and clinics
     * @description Searches published records of one dataset.
     *
     *     **Filters**: a record must match every filter given.
     *     - `country` (required): Dataset code, case-insensitive: de, es, fr, gb, it, mx or pt. de, es, it and pt have live data; fr, gb and mx are accepted and return an empty page.
     *     - `city`: City slug, as in profile URLs, e.g. "berlin" or "san-sebastian". The slug of another name of a large city of the dataset finds the same records (API 1.4; "munich" and "monaco-di-baviera" as "muenchen").
     *     - `q`: Literal text, case- and accent-insensitive: every word must occur in the name, legal name, city, primary type or specialties; the last word may be a prefix. No query syntax is interpreted. Blank means no text filter.
     *     - `whatsapp`: true selects records whose primary number appears WhatsApp-reachable (a technical signal, never consent); false the others.
     *     - `verified`: true selects verified listings, false unverified ones.
     *     - `near`: API 1.2. "latitude,longitude" in decimal degrees (WGS 84), e.g. "52.52,13.405": selects records located within `radius` of this point, ordered by distance (nearest first, then id), each with `distanceMeters`. Records without a location never match.
     *     - `radius`: API 1.2. Only with `near`: the search radius in metres, 1 to 50000; default 10000.
     *     - `bbox`: API 1.3. A map viewport, "minLng,minLat,maxLng,maxLat" in decimal degrees (west, south, east, north edges), e.g. "13.3,52.4,13.5,52.6": selects records located inside it, edges included. A west edge east of the east edge is a box across the antimeridian. Combines with every filter and every sort. Records without a location never match.
     *     - `specialty`: API 1.2. One specialty code, e.g. "dentistry" or "pediatrics": selects records whose primary type or specialties carry it. GET /api/v1/specialties lists the codes with labels in every page language.
     *     - `openAt`: API 1.2. An instant, ISO 8601 with a UTC offset or Z, e.g. "2026-11-23T09:30:00+01:00": selects records open at that moment in their own time zone (across midnight and daylight-saving changes). Records without structured opening hours never match.
     *     - `openNow`: API 1.2. true (the only value) selects records open when the request is served, in their own time zone; each page of a paged search is evaluated at its own request time. Records without structured opening hours never match.
     *     - `language`: API 1.3. One ISO 639-1 language code, lowercase, e.g. "en": selects records whose source says the language is spoken. Records whose source does not say never match.
     *     - `acceptingNewPatients`: API 1.3. true selects records that take new patients, false those that do not. Records whose source does not say match neither.
     *     - `wheelchairAccessible`: API 1.3. true selects records with a wheelchair-accessible entrance, false those without. Records whose source does not say match neither.
     *     - `insurance`: API 1.3. One public insurance or health-system code of the country, lowercase, e.g. "gkv": selects records that work with it. The codes by country: de: gkv, pkv; es: sns, muface, isfas, mugeju; it: ssn; pt: sns, adse (docs/api.md, "Insurance codes"); a code of another country matches nothing. Records whose source does not say never match.
     *     - `updatedSince`: API 1.3. An instant, ISO 8601 with a UTC offset or Z, e.g. "2026-11-01T00:00:00Z": selects records whose public fields changed at or after it (their `updatedAt`, which `fields` returns). A crawl that found a record as it was does not count as a change; `observedAt` says when it was last seen.
     *     - `observedSince`: API 1.5. An instant, ISO 8601 with a UTC offset or Z, e.g. "2026-09-01T00:00:00Z": selects records a crawl observed at or after it (their `observedAt`, which `fields` returns), whether or not it changed them. `GET /api/v1/datasets` gives each dataset's share of records observed in the last 90 days.
     *
     *     **Ordering**: deterministic, by folded (case- and accent-insensitive) display name, then id. With `near` (API 1.2): by distance from that point, nearest first, then id; each record then carries `distanceMeters` (whole metres, great-circle), and records without a location are left out.
     *
     *     **Paging**: send `page.nextCursor` as `cursor`, with the same filters, to get the next page. Cursors are opaque and signed, and bound to the filters they were issued for: a tampered, malformed or foreign cursor, or one sent with different filters, is rejected with 400 (`errors[].parameter` = `cursor`). The last page has `hasMore: false` and `nextCursor: null`. Paging through all pages returns every record exactly once, whatever `limit` is.
     *
     *     **whatsapp** filters on `whatsappEligible`, a technical reachability signal only: the published primary phone appears able to receive WhatsApp messages. It is not consent, an opt-in or permission to send marketing.
     *
     *     **Record shape** (API 1.2, search, batch get and single get): `fields` selects the record fields returned (`id` always; `*` for all, including the API 1.2 fields `specialtyCodes` and `openingHours` and the API 1.3 fields `languages`, `acceptingNewPatients`, `wheelchairAccessible` and `insurance`, which come back only when named); `distanceMeters` is not a record field and stays with `near`. `lang` gives `profileUrl` in that page language. Neither changes which records match: a cursor works with any `fields` and `lang`. The 200 schema is one for both shapes (API 1.3): every field but `id` is optional in it, and a request without `fields` gets every `Doctor` field.
     *
     *     **Batch get**: use `GET /api/v1/doctors:batchGet` (API 1.3). Deprecated, still answered the same: `ids` (API 1.2) = up to 100 comma-separated ids and/or complete profile URLs (each URL-encoded; at most 16384 characters in all) answers `{ doctors, missing }`: the records found, each once, in the order first asked for, and the entries matching no served record, as sent. With `ids`, only `fields` and `lang` may be given besides; a search filter, `limit` or `cursor` is refused with 400 naming it, and `country` is not required. A bad entry is refused with 400 naming its position (`errors[].parameter` = `ids`).
     *
     *     Unknown or repeated parameters are rejected with 400.
     */
    get: operations['searchDoctors'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/doctors:batchGet': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Fetch up to 100 published records by id or profile URL
     * @description API 1.3. Gets up to 100 records in one request: `ids` lists doctor ids and/or complete profile URLs (any page language, mixed freely; each entry URL-encoded; at most 16384 characters in all). The answer is `{ doctors, missing }`: the records found, each once, in the order first asked for (an id and a profile URL of the same record give it once), and the entries matching no served record, as sent, in request order. API 1.4: when some of `missing` are ids of records merged into another, `merged` maps each to the id of the record that survives; the profile URL of such a record finds the survivor (a profile URL names a page, not an id). `fields` and `lang` shape the records as in search; nothing else is accepted (no `country`: ids name their records).
     *
     *     A bad entry is refused with 400 naming its position (`errors[].parameter` = `ids`); unknown or repeated parameters are rejected with 400. The answer is byte for byte the one the deprecated `GET /api/v1/doctors?ids=…` gives for the same ids.
     */
    get: operations['batchGetDoctors'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/doctors/{doctorId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Fetch one published record by id or profile URL
     * @description Returns the same record as search does, byte for byte. API 1.2: `fields` and `lang` shape the record as in search; without them no query parameter is accepted. API 1.4: the 404 of an id merged into another record (the same practice listed twice) adds `mergedInto`, the id of the record that survives, and `mergedAt`; the profile URL of such a record answers the survivor (a profile URL names a page, not an id).
     */
    get: operations['getDoctor'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/changes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Changes feed of one dataset (mirror sync)
     * @description API 1.2. Every record that became served, changed or stopped being served in one dataset, so a program can keep a full mirror in sync instead of re-crawling search.
     *
     *     **Start**: without `since` the feed starts from a snapshot of the dataset: every record served now, as `upsert` changes, and no removals. Then, following the cursors, whatever changed after the start: a record you received that stops being served comes as `delete`.
     *
     *     **Start at an instant** (API 1.3): `since=<instant>` (ISO 8601 with a UTC offset or Z) starts with every change made after that instant (and possibly a few made shortly before it), then cursors as usual. Such a feed's entries (and those of the pages its cursors lead to) carry `changedAt`. An instant older than the feed's clock keeps (35 days) starts at the beginning of the feed: every record ever served, removals included; take an export instead.
     *
     *     **Resume**: send `page.nextCursor` as `since`, with the same country. `nextCursor` is always present; keep the last one and ask again later (poll) to get what changed meanwhile. When nothing changed it is the cursor you sent.
     *
     *     **Order and guarantees**: the snapshot comes in `id` order, then changes in a fixed order (by the store transaction that made them), each as the record's current state: a record changed again after you read it comes again later with its newest state, so applying every change in order (`upsert` = put, `delete` = remove, by `id`) leaves the mirror equal to what search serves. No change is ever skipped, and a consumer following the cursors never gets the same state of a record twice. A change becomes visible once every transaction that started before it has finished (normally well under a second).
     *
     *     **Removals**: a record that stops being served after your start (suppressed, closed, unpublished, or moved to another dataset) comes as `delete` with `doctor: null`. Records that stopped being served before your start, or were never served in the dataset, do not appear. A `delete` for an `id` you do not hold (a record served and removed while you were starting) is to be ignored.
     *
     *     **Merged records** (API 1.4): with `merges=true`, a record merged away into another record (the same practice listed twice) comes as `merged` with `mergedInto`, the id of the record that survives (the end of a chain of merges), instead of `delete`: remove it and point its id at the survivor. Without `merges` it comes as `delete`, as before.
     *
     *     Cursors are opaque, signed and bound to the country and to the key's mode (API 1.3: a cursor a test key received is refused with a live key, and the reverse); a tampered, malformed or foreign cursor, or one sent with another country or a key of the other mode, is rejected with 400 (`errors[].parameter` = `since`). Unknown or repeated parameters are rejected with 400.
     */
    get: operations['listChanges'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/exports/{country}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Export every served record of one dataset (NDJSON snapshot with its changes cursor)
     * @description API 1.3. Every record served in one dataset, streamed as NDJSON from one consistent snapshot, ending with the changes-feed cursor that continues from it: a new mirror starts here instead of paging through the changes feed's snapshot.
     *
     *     **Body** (`application/x-ndjson`): one record per line, exactly as search returns it, in `id` order; then ONE trailer line `{"export":{"country":"de","records":<lines sent>,"complete":true,"changesCursor":"<cursor>"}}`. A body without a trailer was cut off: resume it.
     *
     *     **Following the feed**: every page is read at the snapshot's horizon in the store, so `changesCursor` (also sent before the body as the `Changes-Cursor` header) is exactly where `GET /api/v1/changes` (`since`, same country) delivers every change after it: apply the export, then the feed from that cursor, and the mirror equals what search serves. A record changed while the export ran comes from the feed with its newest state. The feed's entries from this cursor on carry `changedAt` (API 1.3).
     *
     *     **Resume**: the `Export-Resume` header resumes the same snapshot. After a dropped connection send `resume=<Export-Resume>&after=<id of the last record received>`: the export continues after that id and ends with the same `changesCursor`. Records changed since the snapshot are left out (the feed from `changesCursor` has them).
     *
     *     **Limits**: one response streams at most a set time (10 minutes by default), then ends with a trailer `"complete":false` and a `reason`: resume it at once with `resume` and `after`. An account runs a few exports at once per key mode (2 by default); one more is refused with 429 and `Retry-After`, and a server whose export slots are all in use answers 503 with `Retry-After`.
     *
     *     **Compression**: gzip when `Accept-Encoding` allows it (`Content-Encoding: gzip`).
     *
     *     **Charging**: one request unit per 1000 records: the request counts one as usual, covering its first 1000 records, and one more is charged before each further started 1000. When the key's quota or the account's ceiling is used up part way, the export ends cleanly with a trailer `"complete":false`, a `reason` saying when to resume, and the same `changesCursor`: resume it then with `resume` and `after`.
     *
     *     A bad, altered or foreign `resume` token, one from another country, or one issued to a key of the other mode (live or test), is rejected with 400 (`errors[].parameter` = `resume`); so is an `after` that is not a record id, or sent without `resume`. Unknown or repeated parameters are rejected with 400.
     */
    get: operations['exportDoctors'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/cities': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * City slugs of one dataset, with names and counts
     * @description API 1.2. The city slugs that search's `city` parameter accepts in one dataset, with a display name and the number of published records, so clients need not guess slugs.
     *
     *     **Order**: most records first, then slug. `limit` (1 to 500, default 50) keeps the first ones.
     *
     *     **q** narrows the list to cities whose name or slug starts with it, case- and accent-insensitive (`san seb` finds `san-sebastian`, `munc` finds München); counts stay those of the whole city.
     *
     *     Unknown or repeated parameters are rejected with 400.
     */
    get: operations['listCities'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/specialties': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Specialty codes with labels, and counts per dataset
     * @description API 1.2. The specialty codes that search's `specialty` parameter accepts: stable, language-independent codes mapped from the published primary types and specialties, each with its label in `lang` (en, de, es, fr, it or pt; default en).
     *
     *     **Without `country`**: the whole vocabulary, in code order, as `{code, label}`.
     *
     *     **With `country`**: only the codes carried by published records of that dataset, each with `count` (the records `specialty=<code>` finds there), most records first, then code; fr, gb and mx list none.
     *
     *     Unknown or repeated parameters are rejected with 400.
     */
    get: operations['listSpecialties'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/suggest': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Typeahead: specialties, cities and doctors matching typed text
     * @description API 1.3. Typeahead for a search box: specialties, cities and doctors of one dataset matching the text typed so far, each telling what to call next.
     *
     *     - `{type: "specialty", code, label}`: search with `specialty=<code>`. Matches a label or synonym of the vocabulary in any language; only codes the dataset's records carry; `label` in `lang`.
     *     - `{type: "city", citySlug, name}`: search with `city=<citySlug>`. Matches a word of the city name, or the slug's start.
     *     - `{type: "doctor", id, name, city}`: `GET /api/v1/doctors/{id}`. The records search's `q` finds for the same text (names, city, type, specialties).
     *
     *     **Matching**: case- and accent-insensitive; the last typed word is a prefix, earlier words are whole. Specialties and cities must match the whole text at a word start.
     *
     *     **Order**: specialties (most records first, then code), then cities (most matching records first, then slug), then doctors (names starting with the text first, then name, then id). Specialties and cities take at most a quarter of `limit` each (at least one); doctors fill the rest, and slots they leave go to more specialties, then more cities. `limit`: 1 to 20, default 8.
     *
     *     Unknown or repeated parameters are rejected with 400.
     */
    get: operations['suggest'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/facets/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Values of one search facet in a dataset, matching a prefix, with counts
     * @description API 1.4. The values of one search facet in a whole dataset, for lists too long for a search's `facetLimit` (such as cities): each with `count`, how many records `GET /api/v1/doctors?country=<country>&<name>=<value>` finds, and for specialty, city and insurance its `label`.
     *
     *     **q** keeps the values whose value or label starts with it, case- and accent-insensitive (`san seb` finds `san-sebastian`, `zahn` finds `dentistry` with `lang=de`). Counts are always those of the whole dataset.
     *
     *     **Order**: most records first, then value. `limit` (1 to 100, default 10) keeps the first ones.
     *
     *     An unknown facet name, unknown or repeated parameters are rejected with 400.
     */
    get: operations['listFacetValues'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/datasets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Served records per dataset and their 90-day crawl coverage
     * @description API 1.5. How fresh each dataset is: its served records, when a crawl last observed one of them (`lastObservedAt`), and how many were observed in the last 90 days (`observedInWindow`, and `coverage` = `observedInWindow` ÷ `records`). A crawl that finds a record unchanged still observes it.
     *
     *     The window ends at `asOf`, the time of the request to the minute. Search's `observedSince=<windowStart>` finds exactly the records counted in `observedInWindow`.
     *
     *     **Without `country`**: every dataset with served records, in code order. **With `country`**: that dataset only (an empty list when it has no served records).
     *
     *     Unknown or repeated parameters are rejected with 400.
     */
    get: operations['listDatasets'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
};
export type webhooks = {
  'doctor.upserted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A record became served or changed
     * @description Sent by POST to each HTTPS endpoint following the dataset, signed (Standard Webhooks). Answer 2xx within 10 seconds to acknowledge; any other answer, a timeout or a refused connection is retried with backoff for 24 hours, and an endpoint failing for a whole day is disabled (docs/api.md, "Webhooks").
     */
    post: operations['doctorUpserted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'doctor.deleted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A record stopped being served
     * @description Sent by POST to each HTTPS endpoint following the dataset, signed (Standard Webhooks). Answer 2xx within 10 seconds to acknowledge; any other answer, a timeout or a refused connection is retried with backoff for 24 hours, and an endpoint failing for a whole day is disabled (docs/api.md, "Webhooks").
     */
    post: operations['doctorDeleted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'webhook.test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A test delivery from the console
     * @description Sent by POST to each HTTPS endpoint following the dataset, signed (Standard Webhooks). Answer 2xx within 10 seconds to acknowledge; any other answer, a timeout or a refused connection is retried with backoff for 24 hours, and an endpoint failing for a whole day is disabled (docs/api.md, "Webhooks").
     */
    post: operations['webhookTest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
};
export type components = {
  schemas: {
    /** @description A record's current state in the dataset's feed */
    Change: {
      /** @description The stable id of the record (as in search and single fetch) */
      id: string;
      /**
       * @description `upsert`: the record is served in this dataset, as `doctor` (new or changed); `delete`: it is no longer served in this dataset (suppressed, closed, unpublished or moved to another dataset); `merged` (API 1.4, only with `merges=true`): it is no longer served because it was merged into the record `mergedInto`
       * @enum {string}
       */
      change: 'upsert' | 'delete' | 'merged';
      /** @description The record as search and single fetch return it; null for `delete` and `merged` */
      doctor: components['schemas']['Doctor'] | null;
      /** @description API 1.4, for `merged` only: the id of the record this one was merged into (the end of a chain of merges). Remove `id` and point it at this record. */
      mergedInto?: string;
      /**
       * Format: date-time
       * @description API 1.3, in a feed started at an instant or from an export (and the pages its cursors lead to): when the change was made, ISO 8601 UTC. Entries come in the order changes became visible, which may differ from the order of `changedAt` by the length of a write.
       */
      changedAt?: string;
    } & {
      [key: string]: unknown;
    };
    /** @description One page of the changes feed, in feed order */
    ChangesPage: {
      changes: components['schemas']['Change'][];
      page: {
        /** @description Changes in this page */
        count: number;
        /** @description Whether more changes are ready now; ask again with nextCursor until false */
        hasMore: boolean;
        /** @description Always present: send it as `since` (with the same country) for the changes after this page, now or later. When nothing was new it equals the cursor sent. */
        nextCursor: string;
      } & {
        [key: string]: unknown;
      };
    } & {
      [key: string]: unknown;
    };
    /** @description One city of a dataset */
    City: {
      /**
       * @description The city slug, exactly as search's `city` parameter accepts it (and as in profile URLs)
       * @example berlin
       * @example san-sebastian
       */
      slug: string;
      /**
       * @description Display name: the most common published address city among the city's records; null when none publishes one
       * @example Berlin
       * @example San Sebastián
       */
      name: string | null;
      /** @description Published records in this city */
      count: number;
    } & {
      [key: string]: unknown;
    };
    /** @description Cities of one dataset, most records first, then slug */
    CityList: {
      cities: components['schemas']['City'][];
    } & {
      [key: string]: unknown;
    };
    /** @description A city of the dataset whose name matches: search with `city=<citySlug>` */
    CitySuggestion: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      type: 'city';
      /**
       * @description A city slug: search with `city=<citySlug>`
       * @example muenchen
       */
      citySlug: string;
      /**
       * @description Display name: the most common matching spelling among the city's records (the slug if none)
       * @example München
       */
      name: string;
    } & {
      [key: string]: unknown;
    };
    /** @description One dataset: its served records and how many a crawl observed within the window */
    DatasetCoverage: {
      /**
       * @description The dataset, as search’s `country` names it
       * @enum {string}
       */
      country: 'de' | 'es' | 'fr' | 'gb' | 'it' | 'mx' | 'pt';
      /** @description Served records of the dataset */
      records: number;
      /** @description The newest `observedAt` of its records: when a crawl last saw one of them */
      lastObservedAt: string | null;
      /** @description Records whose `observedAt` is at or after `windowStart` */
      observedInWindow: number;
      /**
       * @description `observedInWindow` ÷ `records`, four decimals
       * @example 0.9731
       */
      coverage: number;
    } & {
      [key: string]: unknown;
    };
    /** @description Every dataset with served records (or the one asked for), in code order, with its 90-day coverage. */
    DatasetList: {
      /**
       * Format: date-time
       * @description When the request was served: the end of the window
       */
      asOf: string;
      /**
       * @description The window’s length in days (90)
       * @example 90
       */
      windowDays: number;
      /**
       * Format: date-time
       * @description `asOf` minus `windowDays` days
       */
      windowStart: string;
      datasets: components['schemas']['DatasetCoverage'][];
    } & {
      [key: string]: unknown;
    };
    /** @description A doctor's practice or a clinic */
    Doctor: {
      /** @description Stable place identifier */
      id: string;
      /** @description Published display name */
      name: string | null;
      /** @description Published legal name */
      legalName: string | null;
      /** @description Postal address; all five fields are always present, null when not published */
      address: {
        /** @description Street and house number */
        street: string | null;
        /** @description City or locality name */
        city: string | null;
        /** @description State, region or province */
        state: string | null;
        /** @description Postal code */
        postalCode: string | null;
        /**
         * @description ISO 3166-1 alpha-2 country code of the address, uppercase
         * @example DE
         */
        country: string | null;
      };
      location: {
        latitude: number;
        longitude: number;
      } | null;
      /** @description Primary phone number, normalized to E.164 */
      phone: string | null;
      /** @description Type of the primary number; null when phone is null */
      phoneType: ('mobile' | 'landline' | 'other') | null;
      /** @description Further numbers, normalized to E.164, without duplicates or the primary number */
      additionalPhones: {
        /**
         * @description Phone number in E.164 format
         * @example +493012345678
         */
        number: string;
        /** @description Line type as observed, null when unknown */
        type: ('mobile' | 'landline' | 'other') | null;
      }[];
      /** @description Published practice email */
      email: string | null;
      /** @description Website; a validated public HTTP(S) URL */
      website: string | null;
      /** @description Google Maps link; a validated public HTTP(S) URL */
      googleMapsUrl: string | null;
      /** @description Published category label */
      primaryType: string | null;
      /** @description Published subtype labels */
      specialties: string[];
      /** @description Published rating signal, 0 to 5 */
      rating: number | null;
      /** @description Published review count */
      reviewCount: number | null;
      /** @description Technical reachability signal only: the published primary phone (a mobile number) appears able to receive WhatsApp messages. It is not consent, an opt-in or permission to send marketing. */
      whatsappEligible: boolean;
      /** @description Whether the listing has been verified */
      verified: boolean;
      /**
       * @description Source day labels (as published, e.g. "Monday" or "Montag") mapped to time ranges. Only open days are listed: a day that is not listed is closed, and a listed day has at least one range. Null when no opening hours are published.
       * @example {
       *       "Monday": [
       *         {
       *           "open": "08:00",
       *           "close": "12:00"
       *         }
       *       ]
       *     }
       */
      workingHours: {
        [key: string]: {
          open: string;
          close: string;
        }[];
      } | null;
      /**
       * Format: uri
       * @description Canonical public profile address on the service's website
       */
      profileUrl: string;
    };
    /** @description A record that became served, changed (`doctor.upserted`) or stopped being served (`doctor.deleted`) in a dataset an endpoint follows. Several deliveries for one record can arrive out of order (retries): keep, per `data.id`, the one with the highest `data.version`. */
    DoctorChangeEvent: {
      /** @enum {string} */
      type: 'doctor.upserted' | 'doctor.deleted';
      /**
       * Format: date-time
       * @description When the change was made (= `data.changedAt`)
       */
      timestamp: string;
      data: {
        /** @description The record id (as in search and the changes feed) */
        id: string;
        /**
         * @description The dataset
         * @enum {string}
         */
        country: 'de' | 'es' | 'it' | 'pt';
        /** @description The record's version: only grows; a delivery with a lower one than held is stale */
        version: number;
        /**
         * Format: date-time
         * @description When the change was made
         */
        changedAt: string;
        /** @description The record as search returns it; null for `doctor.deleted` */
        doctor: components['schemas']['Doctor'] | null;
        /** @description API 1.4, on `doctor.deleted` only: the record was removed because it was merged into the record with this id (the end of a chain of merges). Remove `id` and point it at this record. */
        mergedInto?: string;
      };
    };
    /** @description A published record search’s `q` finds for the text: fetch it with `GET /api/v1/doctors/{id}` */
    DoctorSuggestion: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      type: 'doctor';
      /** @description The record id: `GET /api/v1/doctors/{id}` */
      id: string;
      /** @description Published display name (the legal name when there is none) */
      name: string;
      /** @description Published address city; null when there is none */
      city: string | null;
    } & {
      [key: string]: unknown;
    };
    /** @description One NDJSON line: a Doctor record, or the ExportTrailer as the last line */
    ExportLine: components['schemas']['Doctor'] | components['schemas']['ExportTrailer'];
    /** @description The last line of an export: where the changes feed takes over */
    ExportTrailer: {
      export: {
        /** @description The dataset exported (lower case) */
        country: string;
        /** @description Records sent in this response (lines before this one) */
        records: number;
        /** @description true: every record of the snapshot after `after` was sent. false: the export stopped early (see `reason`); resume it with `resume` and `after` */
        complete: boolean;
        /** @description Only when not complete: why the export stopped, and when to resume it */
        reason?: string;
        /** @description Send it as `since` to `GET /api/v1/changes` (same country) for every change after this snapshot; equal to the `Changes-Cursor` header */
        changesCursor: string;
      } & {
        [key: string]: unknown;
      };
    } & {
      [key: string]: unknown;
    };
    /** @description One value of a facet and how many records it finds */
    FacetValue: {
      /**
       * @description The value as the facet's filter takes it in a query string (`true` or `false` for a boolean filter): `?<facet>=<value>` finds `count` records
       * @example dentistry
       * @example berlin
       * @example true
       */
      value: string;
      /** @description Records the search would find with this value, every other filter applied */
      count: number;
      /**
       * @description Display label: a specialty's in `lang` (default en), a city's most common published name, an insurance scheme's own name; absent for the others
       * @example Dentistry
       * @example Berlin
       * @example Gesetzliche Krankenversicherung
       */
      label?: string;
    } & {
      [key: string]: unknown;
    };
    /** @description Values of one facet in a dataset, matching `q`, most records first, then value */
    FacetValueList: {
      values: components['schemas']['FacetValue'][];
    } & {
      [key: string]: unknown;
    };
    /** @description API 1.4, only with `facets`: each facet asked for, with its values, most records first, then value. A facet counts with every filter of the search but its own. */
    Facets: {
      specialty?: components['schemas']['FacetValue'][];
      city?: components['schemas']['FacetValue'][];
      verified?: components['schemas']['FacetValue'][];
      whatsapp?: components['schemas']['FacetValue'][];
      language?: components['schemas']['FacetValue'][];
      acceptingNewPatients?: components['schemas']['FacetValue'][];
      wheelchairAccessible?: components['schemas']['FacetValue'][];
      insurance?: components['schemas']['FacetValue'][];
      openNow?: components['schemas']['FacetValue'][];
    } & {
      [key: string]: unknown;
    };
    /** @description Non-secret metadata of an API key; the secret itself is never returned */
    Key: {
      /** @description Key identifier */
      id: string;
      /** @description Name given at creation */
      name: string;
      /** @description Leading characters of the secret, to tell keys apart */
      prefix: string;
      /**
       * Format: date-time
       * @description When the key was created (UTC)
       */
      creationTime: string;
    };
    KeyResponse: {
      key: components['schemas']['Key'];
    };
    /** @description RFC 9457 problem details (application/problem+json) */
    Problem: {
      /** @description URI reference identifying the problem type */
      type: string;
      /** @description Short summary of the problem type */
      title: string;
      /** @description The HTTP status code */
      status: number;
      /** @description What went wrong with this request */
      detail: string;
      /** @description Every bad parameter and why; may be empty */
      errors: {
        /** @description The query or path parameter (or header) at fault */
        parameter: string;
        /** @description Why it was rejected */
        reason: string;
      }[];
      /** @description API 1.4, only on the 404 of a record merged into another (the same practice listed twice): the id of the record that survives (the end of a chain of merges). Fetch that one instead. */
      mergedInto?: string;
      /**
       * Format: date-time
       * @description API 1.4, with `mergedInto`: when this record was merged away (ISO 8601)
       */
      mergedAt?: string;
    };
    /** @description A change of one parameter that makes an empty search find records (API 1.4, only with `suggestions=true`) */
    SearchSuggestion:
      | {
          /** @constant */
          kind: 'query';
          /** @description The q to send instead: each unknown word replaced by a known one */
          q: string;
          /** @description How many records the search finds with this change (every other parameter kept) */
          resultCount: number;
        }
      | {
          /** @constant */
          kind: 'radius';
          /** @description The radius to send instead, in metres */
          radius: number;
          /** @description How many records the search finds with this change (every other parameter kept) */
          resultCount: number;
        }
      | {
          /** @constant */
          kind: 'city';
          /** @description The city slug to send instead */
          city: string;
          /** @description The city's most common published name */
          name: string | null;
          /** @description How many records the search finds with this change (every other parameter kept) */
          resultCount: number;
        };
    /** @description API 1.2. A record with only the fields named in `fields` (always `id`), in this order; the extras (`specialtyCodes`, `openingHours`, and since API 1.3 `languages`, `acceptingNewPatients`, `wheelchairAccessible`, `insurance`) only when named or with `fields=*`. Without `fields`, every `Doctor` field is present (nullable ones as null) and the extras are absent: exactly the `Doctor` record. */
    SelectedDoctor: {
      /** @description Stable place identifier */
      id: string;
      /** @description Published display name */
      name?: string | null;
      /** @description Published legal name */
      legalName?: string | null;
      /** @description Postal address; all five fields are always present, null when not published */
      address?: {
        /** @description Street and house number */
        street: string | null;
        /** @description City or locality name */
        city: string | null;
        /** @description State, region or province */
        state: string | null;
        /** @description Postal code */
        postalCode: string | null;
        /**
         * @description ISO 3166-1 alpha-2 country code of the address, uppercase
         * @example DE
         */
        country: string | null;
      };
      location?: {
        latitude: number;
        longitude: number;
      } | null;
      /** @description Primary phone number, normalized to E.164 */
      phone?: string | null;
      /** @description Type of the primary number; null when phone is null */
      phoneType?: ('mobile' | 'landline' | 'other') | null;
      /** @description Further numbers, normalized to E.164, without duplicates or the primary number */
      additionalPhones?: {
        /**
         * @description Phone number in E.164 format
         * @example +493012345678
         */
        number: string;
        /** @description Line type as observed, null when unknown */
        type: ('mobile' | 'landline' | 'other') | null;
      }[];
      /** @description Published practice email */
      email?: string | null;
      /** @description Website; a validated public HTTP(S) URL */
      website?: string | null;
      /** @description Google Maps link; a validated public HTTP(S) URL */
      googleMapsUrl?: string | null;
      /** @description Published category label */
      primaryType?: string | null;
      /** @description Published subtype labels */
      specialties?: string[];
      /** @description Published rating signal, 0 to 5 */
      rating?: number | null;
      /** @description Published review count */
      reviewCount?: number | null;
      /** @description Technical reachability signal only: the published primary phone (a mobile number) appears able to receive WhatsApp messages. It is not consent, an opt-in or permission to send marketing. */
      whatsappEligible?: boolean;
      /** @description Whether the listing has been verified */
      verified?: boolean;
      /**
       * @description Source day labels (as published, e.g. "Monday" or "Montag") mapped to time ranges. Only open days are listed: a day that is not listed is closed, and a listed day has at least one range. Null when no opening hours are published.
       * @example {
       *       "Monday": [
       *         {
       *           "open": "08:00",
       *           "close": "12:00"
       *         }
       *       ]
       *     }
       */
      workingHours?: {
        [key: string]: {
          open: string;
          close: string;
        }[];
      } | null;
      /**
       * Format: uri
       * @description Canonical public profile address on the service's website
       */
      profileUrl?: string;
      /** @description API 1.2. Stable, language-independent codes of the primary type and specialties (see GET /api/v1/specialties): the primary type’s first, then the specialties’ in published order, each once; labels outside the vocabulary have no code. */
      specialtyCodes?: string[];
      openingHours?: {
        /**
         * @description IANA time zone of the place, from its dataset country and, where the country has several, its location (e.g. Atlantic/Canary)
         * @example Europe/Berlin
         */
        timeZone: string;
        periods: {
          /** @description ISO weekday the period opens on: 1 = Monday … 7 = Sunday */
          day: number;
          /** @description Local opening time, HH:MM (00:00 to 23:59) */
          open: string;
          /** @description Local closing time, HH:MM; 24:00 is the end of the day, and a time at or before `open` closes on the next day (22:00 to 02:00 runs past midnight) */
          close: string;
        }[];
      } | null;
      /** @description API 1.3. Languages spoken, as ISO 639-1 codes in alphabetical order; empty when the source does not say. */
      languages?: (
        | 'ar'
        | 'bg'
        | 'cs'
        | 'da'
        | 'de'
        | 'el'
        | 'en'
        | 'es'
        | 'fa'
        | 'fi'
        | 'fr'
        | 'he'
        | 'hi'
        | 'hr'
        | 'hu'
        | 'it'
        | 'ja'
        | 'ko'
        | 'nl'
        | 'no'
        | 'pl'
        | 'pt'
        | 'ro'
        | 'ru'
        | 'sk'
        | 'sq'
        | 'sr'
        | 'sv'
        | 'tr'
        | 'uk'
        | 'ur'
        | 'vi'
        | 'zh'
      )[];
      /** @description API 1.3. Whether the place takes new patients; null when the source does not say. */
      acceptingNewPatients?: boolean | null;
      /** @description API 1.3. Whether the entrance is wheelchair accessible; null when the source does not say. */
      wheelchairAccessible?: boolean | null;
      /** @description API 1.3. Public insurance schemes and health-system contracts the place works with, as codes of its own country (de: gkv, pkv; es: sns, muface, isfas, mugeju; it: ssn; pt: sns, adse; docs/api.md, "Insurance codes"), in alphabetical order; empty when the source does not say. */
      insurance?: ('adse' | 'gkv' | 'isfas' | 'muface' | 'mugeju' | 'pkv' | 'sns' | 'ssn')[];
      /** @description API 1.3. When the latest crawl that saw this record was made (UTC): the freshness of its contact and practice data. */
      observedAt?: string | null;
      /** @description API 1.3. When the record’s public fields last changed (UTC): a crawl that found everything as it was, or a change of whether it is served, leaves it as it is. `updatedSince` filters on it. */
      updatedAt?: string | null;
      /** @description API 1.3. When `verified` last became true (UTC); null while the listing is not verified. */
      verifiedAt?: string | null;
    };
    /** @description API 1.2. The answer to a batch get: the records found, each once, in the order first asked for, each shaped by `fields`, and the entries that found none */
    SelectedDoctorBatch: {
      doctors: components['schemas']['SelectedDoctor'][];
      /** @description The entries of `ids` (as sent, decoded) that match no served record, in request order, each once */
      missing: string[];
      /** @description API 1.4, present only when some entry of `missing` is the id of a record merged into another (the same practice listed twice): each such id, mapped to the id of the record that survives (the end of a chain of merges). Ask for that id instead. */
      merged?: {
        [key: string]: string;
      };
    };
    /** @description One page of search results, in the order `sort` asks for (by default folded name, then id; with `near`, by distance, then id), each record shaped by `fields` */
    SelectedDoctorPage: {
      doctors: components['schemas']['SelectedSearchResult'][];
      page: {
        /** @description Records in this page */
        count: number;
        /** @description Whether more pages follow */
        hasMore: boolean;
        /** @description Opaque, signed cursor for the next page (send it as `cursor` with the same filters); null when there is no next page */
        nextCursor: string | null;
        /** @description API 1.3, only with `count=true`: how many records match the filters (all pages). Exact up to 10000; past that it is 10000 and `totalExact` is false. */
        total?: number;
        /** @description API 1.3, only with `count=true`: whether `total` is exact (true) or a lower bound (false). */
        totalExact?: boolean;
      };
      facets?: components['schemas']['Facets'];
      /** @description API 1.4, only with `suggestions=true`: what to try when the first page is empty (see "Zero results"); empty otherwise */
      suggestions?: components['schemas']['SearchSuggestion'][];
    };
    /** @description One published record, shaped by `fields` */
    SelectedDoctorResponse: {
      doctor: components['schemas']['SelectedDoctor'];
    };
    /** @description A search record. With `fields` (API 1.2), only the fields named (always `id`). Without `fields`, every `Doctor` field is present (nullable ones as null) and the extras are absent: exactly the `Doctor` record. Plus `distanceMeters` when the search used `near` (API 1.2). */
    SelectedSearchResult: {
      /** @description Stable place identifier */
      id: string;
      /** @description Published display name */
      name?: string | null;
      /** @description Published legal name */
      legalName?: string | null;
      /** @description Postal address; all five fields are always present, null when not published */
      address?: {
        /** @description Street and house number */
        street: string | null;
        /** @description City or locality name */
        city: string | null;
        /** @description State, region or province */
        state: string | null;
        /** @description Postal code */
        postalCode: string | null;
        /**
         * @description ISO 3166-1 alpha-2 country code of the address, uppercase
         * @example DE
         */
        country: string | null;
      };
      location?: {
        latitude: number;
        longitude: number;
      } | null;
      /** @description Primary phone number, normalized to E.164 */
      phone?: string | null;
      /** @description Type of the primary number; null when phone is null */
      phoneType?: ('mobile' | 'landline' | 'other') | null;
      /** @description Further numbers, normalized to E.164, without duplicates or the primary number */
      additionalPhones?: {
        /**
         * @description Phone number in E.164 format
         * @example +493012345678
         */
        number: string;
        /** @description Line type as observed, null when unknown */
        type: ('mobile' | 'landline' | 'other') | null;
      }[];
      /** @description Published practice email */
      email?: string | null;
      /** @description Website; a validated public HTTP(S) URL */
      website?: string | null;
      /** @description Google Maps link; a validated public HTTP(S) URL */
      googleMapsUrl?: string | null;
      /** @description Published category label */
      primaryType?: string | null;
      /** @description Published subtype labels */
      specialties?: string[];
      /** @description Published rating signal, 0 to 5 */
      rating?: number | null;
      /** @description Published review count */
      reviewCount?: number | null;
      /** @description Technical reachability signal only: the published primary phone (a mobile number) appears able to receive WhatsApp messages. It is not consent, an opt-in or permission to send marketing. */
      whatsappEligible?: boolean;
      /** @description Whether the listing has been verified */
      verified?: boolean;
      /**
       * @description Source day labels (as published, e.g. "Monday" or "Montag") mapped to time ranges. Only open days are listed: a day that is not listed is closed, and a listed day has at least one range. Null when no opening hours are published.
       * @example {
       *       "Monday": [
       *         {
       *           "open": "08:00",
       *           "close": "12:00"
       *         }
       *       ]
       *     }
       */
      workingHours?: {
        [key: string]: {
          open: string;
          close: string;
        }[];
      } | null;
      /**
       * Format: uri
       * @description Canonical public profile address on the service's website
       */
      profileUrl?: string;
      /** @description API 1.2. Stable, language-independent codes of the primary type and specialties (see GET /api/v1/specialties): the primary type’s first, then the specialties’ in published order, each once; labels outside the vocabulary have no code. */
      specialtyCodes?: string[];
      openingHours?: {
        /**
         * @description IANA time zone of the place, from its dataset country and, where the country has several, its location (e.g. Atlantic/Canary)
         * @example Europe/Berlin
         */
        timeZone: string;
        periods: {
          /** @description ISO weekday the period opens on: 1 = Monday … 7 = Sunday */
          day: number;
          /** @description Local opening time, HH:MM (00:00 to 23:59) */
          open: string;
          /** @description Local closing time, HH:MM; 24:00 is the end of the day, and a time at or before `open` closes on the next day (22:00 to 02:00 runs past midnight) */
          close: string;
        }[];
      } | null;
      /** @description API 1.3. Languages spoken, as ISO 639-1 codes in alphabetical order; empty when the source does not say. */
      languages?: (
        | 'ar'
        | 'bg'
        | 'cs'
        | 'da'
        | 'de'
        | 'el'
        | 'en'
        | 'es'
        | 'fa'
        | 'fi'
        | 'fr'
        | 'he'
        | 'hi'
        | 'hr'
        | 'hu'
        | 'it'
        | 'ja'
        | 'ko'
        | 'nl'
        | 'no'
        | 'pl'
        | 'pt'
        | 'ro'
        | 'ru'
        | 'sk'
        | 'sq'
        | 'sr'
        | 'sv'
        | 'tr'
        | 'uk'
        | 'ur'
        | 'vi'
        | 'zh'
      )[];
      /** @description API 1.3. Whether the place takes new patients; null when the source does not say. */
      acceptingNewPatients?: boolean | null;
      /** @description API 1.3. Whether the entrance is wheelchair accessible; null when the source does not say. */
      wheelchairAccessible?: boolean | null;
      /** @description API 1.3. Public insurance schemes and health-system contracts the place works with, as codes of its own country (de: gkv, pkv; es: sns, muface, isfas, mugeju; it: ssn; pt: sns, adse; docs/api.md, "Insurance codes"), in alphabetical order; empty when the source does not say. */
      insurance?: ('adse' | 'gkv' | 'isfas' | 'muface' | 'mugeju' | 'pkv' | 'sns' | 'ssn')[];
      /** @description API 1.3. When the latest crawl that saw this record was made (UTC): the freshness of its contact and practice data. */
      observedAt?: string | null;
      /** @description API 1.3. When the record’s public fields last changed (UTC): a crawl that found everything as it was, or a change of whether it is served, leaves it as it is. `updatedSince` filters on it. */
      updatedAt?: string | null;
      /** @description API 1.3. When `verified` last became true (UTC); null while the listing is not verified. */
      verifiedAt?: string | null;
      /** @description API 1.2, only when the search used `near`: the distance from that point to `location`, in whole metres (great-circle) */
      distanceMeters?: number;
    };
    /** @description One code of the specialty vocabulary */
    Specialty: {
      /**
       * @description The stable specialty code, exactly as search's `specialty` parameter accepts it
       * @example dentistry
       * @example general-practice
       */
      code: string;
      /**
       * @description Display label in the requested page language
       * @example Dentistry
       * @example Zahnmedizin
       */
      label: string;
      /** @description Only with `country`: published records of that dataset carrying the code */
      count?: number;
    } & {
      [key: string]: unknown;
    };
    /**
     * @description Without `country`: every code, in code order. With `country`: the codes of that dataset’s records, most records first, then code, each with its count.
     * @example {
     *       "specialties": [
     *         {
     *           "code": "general-practice",
     *           "label": "Allgemeinmedizin",
     *           "count": 5210
     *         },
     *         {
     *           "code": "dentistry",
     *           "label": "Zahnmedizin",
     *           "count": 2980
     *         }
     *       ]
     *     }
     */
    SpecialtyList: {
      specialties: components['schemas']['Specialty'][];
    } & {
      [key: string]: unknown;
    };
    /** @description A specialty code whose label or synonym matches: search with `specialty=<code>` */
    SpecialtySuggestion: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      type: 'specialty';
      /**
       * @description A specialty code: search with `specialty=<code>`
       * @example dentistry
       */
      code: string;
      /**
       * @description Its label in `lang`
       * @example Dentistry
       */
      label: string;
    } & {
      [key: string]: unknown;
    };
    /**
     * @description Specialties, then cities, then doctors, in the typeahead’s order
     * @example {
     *       "suggestions": [
     *         {
     *           "type": "specialty",
     *           "code": "general-practice",
     *           "label": "General practice"
     *         },
     *         {
     *           "type": "city",
     *           "citySlug": "muenchen",
     *           "name": "München"
     *         },
     *         {
     *           "type": "doctor",
     *           "id": "ChIJ2eUgeAK6j4ARbn5u_wAGqWA",
     *           "name": "Praxis Dr. Müller",
     *           "city": "München"
     *         }
     *       ]
     *     }
     */
    SuggestionList: {
      suggestions: (
        | components['schemas']['SpecialtySuggestion']
        | components['schemas']['CitySuggestion']
        | components['schemas']['DoctorSuggestion']
      )[];
    } & {
      [key: string]: unknown;
    };
    /** @description Sent by "Send test event" in the console, to check an endpoint and its signature check. */
    WebhookTestEvent: {
      /** @constant */
      type: 'webhook.test';
      /** Format: date-time */
      timestamp: string;
      data: {
        /** Format: uuid */
        endpointId: string;
      };
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
  getKey: {
    parameters: {
      query?: never;
      header?: {
        /** @description ETags of answers you already have (or `*`); when one matches the current answer, the API answers 304 with no body, not counted against the rate limit. Weak tags (`W/"…"`) compare equal to their strong form. */
        'If-None-Match'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "key": {
           *         "id": "0b9f6c1e-3f4a-4c2b-9a51-6d2f1e8c7a40",
           *         "name": "my server",
           *         "prefix": "dk_live_0Xb4",
           *         "creationTime": "2026-01-01T10:00:00.000Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['KeyResponse'];
        };
      };
      /** @description Not modified: the answer still has an ETag sent in If-None-Match. No body; every header the 200 would carry. Not counted against the rate limit. */
      304: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A query or path parameter is invalid; every bad parameter is named in `errors` */
      400: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The API key is missing, malformed, unknown or revoked. Do not retry with the same key. */
      401: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The key's request window is exhausted; wait `Retry-After` seconds before retrying */
      429: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Whole seconds to wait; never earlier than the end of the window */
          'Retry-After'?: number;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The request line and headers are too large (answered before the request is read, so without the other headers); shorten the URL or the headers */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description An unexpected server error; the body never carries internals. Quote `X-Request-Id` when reporting it. */
      500: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Temporarily unavailable (search cluster or rate-limit store); retry later */
      503: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Any other refusal by the HTTP layer (such as 408 Request Timeout or 414 URI Too Long), as a problem whose `type` is `about:blank` */
      default: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  searchDoctors: {
    parameters: {
      query?: {
        /**
         * @description Dataset code, case-insensitive: de, es, fr, gb, it, mx or pt. de, es, it and pt have live data; fr, gb and mx are accepted and return an empty page. Required, except with the deprecated `ids`. Listed lowercase; uppercase (`DE`) is accepted too.
         * @example de
         */
        country?: 'de' | 'es' | 'fr' | 'gb' | 'it' | 'mx' | 'pt';
        /**
         * @description City slug, as in profile URLs, e.g. "berlin" or "san-sebastian". The slug of another name of a large city of the dataset finds the same records (API 1.4; "munich" and "monaco-di-baviera" as "muenchen").
         * @example berlin
         */
        city?: string;
        /** @description Literal text, case- and accent-insensitive: every word must occur in the name, legal name, city, primary type or specialties; the last word may be a prefix. No query syntax is interpreted. Blank means no text filter. */
        q?: string;
        /** @description true selects records whose primary number appears WhatsApp-reachable (a technical signal, never consent); false the others. */
        whatsapp?: boolean;
        /** @description true selects verified listings, false unverified ones. */
        verified?: boolean;
        /**
         * @description API 1.2. "latitude,longitude" in decimal degrees (WGS 84), e.g. "52.52,13.405": selects records located within `radius` of this point, ordered by distance (nearest first, then id), each with `distanceMeters`. Records without a location never match.
         * @example 52.52,13.405
         */
        near?: string;
        /** @description API 1.2. Only with `near`: the search radius in metres, 1 to 50000; default 10000. */
        radius?: number;
        /**
         * @description API 1.3. A map viewport, "minLng,minLat,maxLng,maxLat" in decimal degrees (west, south, east, north edges), e.g. "13.3,52.4,13.5,52.6": selects records located inside it, edges included. A west edge east of the east edge is a box across the antimeridian. Combines with every filter and every sort. Records without a location never match.
         * @example 13.3,52.4,13.5,52.6
         */
        bbox?: string;
        /** @description API 1.2. One specialty code, e.g. "dentistry" or "pediatrics": selects records whose primary type or specialties carry it. GET /api/v1/specialties lists the codes with labels in every page language. */
        specialty?:
          | 'acupuncture'
          | 'allergology'
          | 'cardiology'
          | 'cosmetic-dentistry'
          | 'dental-hygiene'
          | 'dental-implants'
          | 'dentistry'
          | 'dermatology'
          | 'diabetology'
          | 'endodontics'
          | 'general-practice'
          | 'gynecology'
          | 'homeopathy'
          | 'internal-medicine'
          | 'minor-surgery'
          | 'naturopathy'
          | 'nutrition'
          | 'ophthalmology'
          | 'optometry'
          | 'orthodontics'
          | 'orthopedics'
          | 'otorhinolaryngology'
          | 'pediatric-dentistry'
          | 'pediatrics'
          | 'periodontics'
          | 'physiotherapy'
          | 'preventive-checkups'
          | 'sports-medicine'
          | 'travel-medicine';
        /**
         * @description API 1.2. An instant, ISO 8601 with a UTC offset or Z, e.g. "2026-11-23T09:30:00+01:00": selects records open at that moment in their own time zone (across midnight and daylight-saving changes). Records without structured opening hours never match.
         * @example 2026-11-23T09:30:00+01:00
         */
        openAt?: string;
        /** @description API 1.2. true (the only value) selects records open when the request is served, in their own time zone; each page of a paged search is evaluated at its own request time. Records without structured opening hours never match. */
        openNow?: true;
        /** @description API 1.3. One ISO 639-1 language code, lowercase, e.g. "en": selects records whose source says the language is spoken. Records whose source does not say never match. */
        language?:
          | 'ar'
          | 'bg'
          | 'cs'
          | 'da'
          | 'de'
          | 'el'
          | 'en'
          | 'es'
          | 'fa'
          | 'fi'
          | 'fr'
          | 'he'
          | 'hi'
          | 'hr'
          | 'hu'
          | 'it'
          | 'ja'
          | 'ko'
          | 'nl'
          | 'no'
          | 'pl'
          | 'pt'
          | 'ro'
          | 'ru'
          | 'sk'
          | 'sq'
          | 'sr'
          | 'sv'
          | 'tr'
          | 'uk'
          | 'ur'
          | 'vi'
          | 'zh';
        /** @description API 1.3. true selects records that take new patients, false those that do not. Records whose source does not say match neither. */
        acceptingNewPatients?: boolean;
        /** @description API 1.3. true selects records with a wheelchair-accessible entrance, false those without. Records whose source does not say match neither. */
        wheelchairAccessible?: boolean;
        /** @description API 1.3. One public insurance or health-system code of the country, lowercase, e.g. "gkv": selects records that work with it. The codes by country: de: gkv, pkv; es: sns, muface, isfas, mugeju; it: ssn; pt: sns, adse (docs/api.md, "Insurance codes"); a code of another country matches nothing. Records whose source does not say never match. */
        insurance?: 'adse' | 'gkv' | 'isfas' | 'muface' | 'mugeju' | 'pkv' | 'sns' | 'ssn';
        /** @description API 1.3. An instant, ISO 8601 with a UTC offset or Z, e.g. "2026-11-01T00:00:00Z": selects records whose public fields changed at or after it (their `updatedAt`, which `fields` returns). A crawl that found a record as it was does not count as a change; `observedAt` says when it was last seen. */
        updatedSince?: string;
        /** @description API 1.5. An instant, ISO 8601 with a UTC offset or Z, e.g. "2026-09-01T00:00:00Z": selects records a crawl observed at or after it (their `observedAt`, which `fields` returns), whether or not it changed them. `GET /api/v1/datasets` gives each dataset's share of records observed in the last 90 days. */
        observedSince?: string;
        /** @description Records per page, 1 to 100. */
        limit?: number;
        /** @description The opaque page.nextCursor of the preceding response; send it with the same filters to get the next page. */
        cursor?: string;
        /** @description API 1.3. The order of the records: `relevance` (best match first, see "Ranking" in the API guide), `name` (folded name, then id) or `distance` (nearest first, then id; needs `near`). Default: `distance` with `near`, else `name`. A cursor is bound to the order it was issued for. */
        sort?: 'relevance' | 'name' | 'distance';
        /** @description API 1.3. true adds `page.total`, how many records match, and `page.totalExact`: exact up to 10000; past that `total` is 10000, a lower bound, with `totalExact: false`. */
        count?: boolean;
        /**
         * @description API 1.4. Comma-separated facet names (specialty, city, verified, whatsapp, language, acceptingNewPatients, wheelchairAccessible, insurance, openNow): the answer adds `facets`, each value a filter of that name takes with how many records it would find and, for specialty, city and insurance, its label. A facet's counts apply every filter but its own (docs/api.md, "Facets"). Sent as one comma-separated value (`facets=specialty,city`), each name once.
         * @example [
         *       "specialty",
         *       "city"
         *     ]
         */
        facets?: (
          | 'specialty'
          | 'city'
          | 'verified'
          | 'whatsapp'
          | 'language'
          | 'acceptingNewPatients'
          | 'wheelchairAccessible'
          | 'insurance'
          | 'openNow'
        )[];
        /** @description API 1.4. Only with `facets`: values listed per facet, 1 to 100, most records first; default 10. */
        facetLimit?: number;
        /** @description API 1.4. true adds `suggestions`: on an empty first page, up to three changes of one parameter that find records (a corrected `q`, a wider `radius`, a nearby `city`), each with how many; otherwise an empty list. See "Zero results" in the API guide. */
        suggestions?: boolean;
        /**
         * @description API 1.2. Comma-separated names of the record fields to return (`id` always comes back), or `*` for every field: id, name, legalName, address, location, phone, phoneType, additionalPhones, email, website, googleMapsUrl, primaryType, specialties, rating, reviewCount, whatsappEligible, verified, workingHours, profileUrl, specialtyCodes, openingHours, languages, acceptingNewPatients, wheelchairAccessible, insurance, observedAt, updatedAt, verifiedAt. Names are case-sensitive; fields come out in this order. `specialtyCodes` and `openingHours` (API 1.2), `languages`, `acceptingNewPatients`, `wheelchairAccessible` and `insurance` (API 1.3) are returned only when named here. Without `fields`, the full 1.1 record. Sent as one comma-separated value (`fields=name,phone`); `*` only alone.
         * @example [
         *       "name",
         *       "phone",
         *       "profileUrl"
         *     ]
         */
        fields?: (
          | '*'
          | 'id'
          | 'name'
          | 'legalName'
          | 'address'
          | 'location'
          | 'phone'
          | 'phoneType'
          | 'additionalPhones'
          | 'email'
          | 'website'
          | 'googleMapsUrl'
          | 'primaryType'
          | 'specialties'
          | 'rating'
          | 'reviewCount'
          | 'whatsappEligible'
          | 'verified'
          | 'workingHours'
          | 'profileUrl'
          | 'specialtyCodes'
          | 'openingHours'
          | 'languages'
          | 'acceptingNewPatients'
          | 'wheelchairAccessible'
          | 'insurance'
          | 'observedAt'
          | 'updatedAt'
          | 'verifiedAt'
        )[];
        /** @description API 1.2. Page language of `profileUrl`: en, de, es, fr, it, pt (case-insensitive). Without it, the English page. */
        lang?: 'en' | 'de' | 'es' | 'fr' | 'it' | 'pt';
        /**
         * @deprecated
         * @description Deprecated since API 1.3: use `GET /api/v1/doctors:batchGet`, which answers exactly the same. API 1.2. Batch get: up to 100 comma-separated doctor ids and/or complete profile URLs (any page language; each URL-encoded), at most 16384 characters in all. Answers `{ doctors, missing }` instead of a page. Cannot be combined with the search filters, `limit` or `cursor`; `country` is then not required. The answer is then a batch (`SelectedDoctorBatch`), not a page.
         * @example [
         *       "de-mueller",
         *       "ChIJ2eUgeAK6j4ARbn5u_wAGqWA"
         *     ]
         */
        ids?: string[];
      };
      header?: {
        /** @description ETags of answers you already have (or `*`); when one matches the current answer, the API answers 304 with no body, not counted against the rate limit. Weak tags (`W/"…"`) compare equal to their strong form. */
        'If-None-Match'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SelectedDoctorPage'];
        };
      };
      /** @description Not modified: the answer still has an ETag sent in If-None-Match. No body; every header the 200 would carry. Not counted against the rate limit. */
      304: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A query or path parameter is invalid; every bad parameter is named in `errors` */
      400: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The API key is missing, malformed, unknown or revoked. Do not retry with the same key. */
      401: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The key's request window is exhausted; wait `Retry-After` seconds before retrying */
      429: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Whole seconds to wait; never earlier than the end of the window */
          'Retry-After'?: number;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The request line and headers are too large (answered before the request is read, so without the other headers); shorten the URL or the headers */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description An unexpected server error; the body never carries internals. Quote `X-Request-Id` when reporting it. */
      500: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Temporarily unavailable (search cluster or rate-limit store); retry later */
      503: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Any other refusal by the HTTP layer (such as 408 Request Timeout or 414 URI Too Long), as a problem whose `type` is `about:blank` */
      default: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  batchGetDoctors: {
    parameters: {
      query: {
        /**
         * @description Up to 100 doctor ids and/or complete canonical profile URLs (any page language), as one comma-separated value, each entry URL-encoded; at most 16384 characters in all.
         * @example [
         *       "de-mueller",
         *       "ChIJ2eUgeAK6j4ARbn5u_wAGqWA"
         *     ]
         */
        ids: string[];
        /**
         * @description API 1.2. Comma-separated names of the record fields to return (`id` always comes back), or `*` for every field: id, name, legalName, address, location, phone, phoneType, additionalPhones, email, website, googleMapsUrl, primaryType, specialties, rating, reviewCount, whatsappEligible, verified, workingHours, profileUrl, specialtyCodes, openingHours, languages, acceptingNewPatients, wheelchairAccessible, insurance, observedAt, updatedAt, verifiedAt. Names are case-sensitive; fields come out in this order. `specialtyCodes` and `openingHours` (API 1.2), `languages`, `acceptingNewPatients`, `wheelchairAccessible` and `insurance` (API 1.3) are returned only when named here. Without `fields`, the full 1.1 record. Sent as one comma-separated value (`fields=name,phone`); `*` only alone.
         * @example [
         *       "name",
         *       "phone",
         *       "profileUrl"
         *     ]
         */
        fields?: (
          | '*'
          | 'id'
          | 'name'
          | 'legalName'
          | 'address'
          | 'location'
          | 'phone'
          | 'phoneType'
          | 'additionalPhones'
          | 'email'
          | 'website'
          | 'googleMapsUrl'
          | 'primaryType'
          | 'specialties'
          | 'rating'
          | 'reviewCount'
          | 'whatsappEligible'
          | 'verified'
          | 'workingHours'
          | 'profileUrl'
          | 'specialtyCodes'
          | 'openingHours'
          | 'languages'
          | 'acceptingNewPatients'
          | 'wheelchairAccessible'
          | 'insurance'
          | 'observedAt'
          | 'updatedAt'
          | 'verifiedAt'
        )[];
        /** @description API 1.2. Page language of `profileUrl`: en, de, es, fr, it, pt (case-insensitive). Without it, the English page. */
        lang?: 'en' | 'de' | 'es' | 'fr' | 'it' | 'pt';
      };
      header?: {
        /** @description ETags of answers you already have (or `*`); when one matches the current answer, the API answers 304 with no body, not counted against the rate limit. Weak tags (`W/"…"`) compare equal to their strong form. */
        'If-None-Match'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "doctors": [
           *         {
           *           "id": "de-mueller",
           *           "name": "Praxis Dr. Müller",
           *           "legalName": null,
           *           "address": {
           *             "street": "Hauptstraße 1",
           *             "city": "Berlin",
           *             "state": null,
           *             "postalCode": "10115",
           *             "country": "DE"
           *           },
           *           "location": {
           *             "latitude": 52.52,
           *             "longitude": 13.405
           *           },
           *           "phone": "+4915123456789",
           *           "phoneType": "mobile",
           *           "additionalPhones": [],
           *           "email": "praxis@example.com",
           *           "website": "https://praxis.example.com/",
           *           "googleMapsUrl": null,
           *           "primaryType": "Arztpraxis",
           *           "specialties": [
           *             "Allgemeinmedizin",
           *             "Sportmedizin"
           *           ],
           *           "rating": 4.5,
           *           "reviewCount": 12,
           *           "whatsappEligible": true,
           *           "verified": true,
           *           "workingHours": {
           *             "Montag": [
           *               {
           *                 "open": "08:00",
           *                 "close": "12:00"
           *               }
           *             ]
           *           },
           *           "profileUrl": "https://www.doctor-directory.example/en/doctors/de/berlin/praxis-dr-mueller"
           *         }
           *       ],
           *       "missing": [
           *         "de-unknown"
           *       ]
           *     }
           */
          'application/json': components['schemas']['SelectedDoctorBatch'];
        };
      };
      /** @description Not modified: the answer still has an ETag sent in If-None-Match. No body; every header the 200 would carry. Not counted against the rate limit. */
      304: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A query or path parameter is invalid; every bad parameter is named in `errors` */
      400: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The API key is missing, malformed, unknown or revoked. Do not retry with the same key. */
      401: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The key's request window is exhausted; wait `Retry-After` seconds before retrying */
      429: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Whole seconds to wait; never earlier than the end of the window */
          'Retry-After'?: number;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The request line and headers are too large (answered before the request is read, so without the other headers); shorten the URL or the headers */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description An unexpected server error; the body never carries internals. Quote `X-Request-Id` when reporting it. */
      500: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Temporarily unavailable (search cluster or rate-limit store); retry later */
      503: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Any other refusal by the HTTP layer (such as 408 Request Timeout or 414 URI Too Long), as a problem whose `type` is `about:blank` */
      default: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getDoctor: {
    parameters: {
      query?: {
        /**
         * @description API 1.2. Comma-separated names of the record fields to return (`id` always comes back), or `*` for every field: id, name, legalName, address, location, phone, phoneType, additionalPhones, email, website, googleMapsUrl, primaryType, specialties, rating, reviewCount, whatsappEligible, verified, workingHours, profileUrl, specialtyCodes, openingHours, languages, acceptingNewPatients, wheelchairAccessible, insurance, observedAt, updatedAt, verifiedAt. Names are case-sensitive; fields come out in this order. `specialtyCodes` and `openingHours` (API 1.2), `languages`, `acceptingNewPatients`, `wheelchairAccessible` and `insurance` (API 1.3) are returned only when named here. Without `fields`, the full 1.1 record. Sent as one comma-separated value (`fields=name,phone`); `*` only alone.
         * @example [
         *       "name",
         *       "phone",
         *       "profileUrl"
         *     ]
         */
        fields?: (
          | '*'
          | 'id'
          | 'name'
          | 'legalName'
          | 'address'
          | 'location'
          | 'phone'
          | 'phoneType'
          | 'additionalPhones'
          | 'email'
          | 'website'
          | 'googleMapsUrl'
          | 'primaryType'
          | 'specialties'
          | 'rating'
          | 'reviewCount'
          | 'whatsappEligible'
          | 'verified'
          | 'workingHours'
          | 'profileUrl'
          | 'specialtyCodes'
          | 'openingHours'
          | 'languages'
          | 'acceptingNewPatients'
          | 'wheelchairAccessible'
          | 'insurance'
          | 'observedAt'
          | 'updatedAt'
          | 'verifiedAt'
        )[];
        /** @description API 1.2. Page language of `profileUrl`: en, de, es, fr, it, pt (case-insensitive). Without it, the English page. */
        lang?: 'en' | 'de' | 'es' | 'fr' | 'it' | 'pt';
      };
      header?: {
        /** @description ETags of answers you already have (or `*`); when one matches the current answer, the API answers 304 with no body, not counted against the rate limit. Weak tags (`W/"…"`) compare equal to their strong form. */
        'If-None-Match'?: string;
      };
      path: {
        /** @description The stable `id` from a search response, or a complete canonical profile URL of the website (any page language), URL-encoded as a whole. Profile URLs are parsed, never fetched; other hosts, credentials, query strings, fragments and non-profile paths are rejected with 400. */
        doctorId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "doctor": {
           *         "id": "de-mueller",
           *         "name": "Praxis Dr. Müller",
           *         "legalName": null,
           *         "address": {
           *           "street": "Hauptstraße 1",
           *           "city": "Berlin",
           *           "state": null,
           *           "postalCode": "10115",
           *           "country": "DE"
           *         },
           *         "location": {
           *           "latitude": 52.52,
           *           "longitude": 13.405
           *         },
           *         "phone": "+4915123456789",
           *         "phoneType": "mobile",
           *         "additionalPhones": [],
           *         "email": "praxis@example.com",
           *         "website": "https://praxis.example.com/",
           *         "googleMapsUrl": null,
           *         "primaryType": "Arztpraxis",
           *         "specialties": [
           *           "Allgemeinmedizin",
           *           "Sportmedizin"
           *         ],
           *         "rating": 4.5,
           *         "reviewCount": 12,
           *         "whatsappEligible": true,
           *         "verified": true,
           *         "workingHours": {
           *           "Montag": [
           *             {
           *               "open": "08:00",
           *               "close": "12:00"
           *             }
           *           ]
           *         },
           *         "profileUrl": "https://www.doctor-directory.example/en/doctors/de/berlin/praxis-dr-mueller"
           *       }
           *     }
           */
          'application/json': components['schemas']['SelectedDoctorResponse'];
        };
      };
      /** @description Not modified: the answer still has an ETag sent in If-None-Match. No body; every header the 200 would carry. Not counted against the rate limit. */
      304: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A query or path parameter is invalid; every bad parameter is named in `errors` */
      400: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The API key is missing, malformed, unknown or revoked. Do not retry with the same key. */
      401: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description No current published record has this id (unknown, suppressed, closed or no longer published) */
      404: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The key's request window is exhausted; wait `Retry-After` seconds before retrying */
      429: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Whole seconds to wait; never earlier than the end of the window */
          'Retry-After'?: number;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The request line and headers are too large (answered before the request is read, so without the other headers); shorten the URL or the headers */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description An unexpected server error; the body never carries internals. Quote `X-Request-Id` when reporting it. */
      500: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Temporarily unavailable (search cluster or rate-limit store); retry later */
      503: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Any other refusal by the HTTP layer (such as 408 Request Timeout or 414 URI Too Long), as a problem whose `type` is `about:blank` */
      default: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listChanges: {
    parameters: {
      query: {
        /**
         * @description Dataset code, case-insensitive: de, es, fr, gb, it, mx or pt. The feed lists the records served in this dataset, and those that stopped being served there. Listed lowercase; uppercase (`DE`) is accepted too.
         * @example de
         */
        country: 'de' | 'es' | 'fr' | 'gb' | 'it' | 'mx' | 'pt';
        /** @description The opaque page.nextCursor of an earlier response for the same country, or (API 1.3) an instant, ISO 8601 with a UTC offset or Z (e.g. "2026-11-01T00:00:00Z"): the feed then starts with every change made after that instant (and possibly a few made shortly before it), and each entry carries `changedAt`. Omit it to start from a snapshot: every record currently served, as upserts (no removals), then the changes after it. */
        since?: string;
        /** @description Changes per page, 1 to 1000. */
        limit?: number;
        /** @description API 1.4. true: a record merged away into another record (the same practice listed twice) comes as a `merged` entry with `mergedInto`, the id of the record that survives, instead of a `delete`, so a mirror can re-key it. Send it on every request of the feed; without it every entry is as before. */
        merges?: boolean;
      };
      header?: {
        /** @description ETags of answers you already have (or `*`); when one matches the current answer, the API answers 304 with no body, not counted against the rate limit. Weak tags (`W/"…"`) compare equal to their strong form. */
        'If-None-Match'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "changes": [
           *         {
           *           "id": "de-mueller",
           *           "change": "upsert",
           *           "doctor": {
           *             "id": "de-mueller",
           *             "name": "Praxis Dr. Müller",
           *             "legalName": null,
           *             "address": {
           *               "street": "Hauptstraße 1",
           *               "city": "Berlin",
           *               "state": null,
           *               "postalCode": "10115",
           *               "country": "DE"
           *             },
           *             "location": {
           *               "latitude": 52.52,
           *               "longitude": 13.405
           *             },
           *             "phone": "+4915123456789",
           *             "phoneType": "mobile",
           *             "additionalPhones": [],
           *             "email": "praxis@example.com",
           *             "website": "https://praxis.example.com/",
           *             "googleMapsUrl": null,
           *             "primaryType": "Arztpraxis",
           *             "specialties": [
           *               "Allgemeinmedizin",
           *               "Sportmedizin"
           *             ],
           *             "rating": 4.5,
           *             "reviewCount": 12,
           *             "whatsappEligible": true,
           *             "verified": true,
           *             "workingHours": {
           *               "Montag": [
           *                 {
           *                   "open": "08:00",
           *                   "close": "12:00"
           *                 }
           *               ]
           *             },
           *             "profileUrl": "https://www.doctor-directory.example/en/doctors/de/berlin/praxis-dr-mueller"
           *           }
           *         },
           *         {
           *           "id": "de-suppressed",
           *           "change": "delete",
           *           "doctor": null
           *         }
           *       ],
           *       "page": {
           *         "count": 2,
           *         "hasMore": false,
           *         "nextCursor": "eyJ2IjoxLCJhIjpbInByYXhpcyBudW1tZXIgMTMiLCJkZS1jcm93ZC0wMjEiXSwiZiI6Im5oVnFuTm5lQ2tRc3pZdERCM2U2bXRGcm04NXVDekR0dmU0anRfVTVwQmcifQ.WSQhZTT4hFzvM5vfUyduVyo3VobLGtFhJtDhIOy3Mxw"
           *       }
           *     }
           */
          'application/json': components['schemas']['ChangesPage'];
        };
      };
      /** @description Not modified: the answer still has an ETag sent in If-None-Match. No body; every header the 200 would carry. Not counted against the rate limit. */
      304: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A query or path parameter is invalid; every bad parameter is named in `errors` */
      400: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The API key is missing, malformed, unknown or revoked. Do not retry with the same key. */
      401: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The key's request window is exhausted; wait `Retry-After` seconds before retrying */
      429: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Whole seconds to wait; never earlier than the end of the window */
          'Retry-After'?: number;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The request line and headers are too large (answered before the request is read, so without the other headers); shorten the URL or the headers */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description An unexpected server error; the body never carries internals. Quote `X-Request-Id` when reporting it. */
      500: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Temporarily unavailable (search cluster or rate-limit store); retry later */
      503: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Any other refusal by the HTTP layer (such as 408 Request Timeout or 414 URI Too Long), as a problem whose `type` is `about:blank` */
      default: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  exportDoctors: {
    parameters: {
      query?: {
        /** @description The `Export-Resume` header of an earlier export of the same country, to continue that export (the same snapshot, the same trailer cursor) after a dropped connection or an exhausted quota. Omit it to start a new export. */
        resume?: string;
        /** @description With `resume`: the `id` of the last record received; the export continues with the records after it. Without it a resumed export starts again from its first record. */
        after?: string;
      };
      header?: never;
      path: {
        /** @description Dataset code, case-insensitive: de, es, fr, gb, it, mx or pt. The export lists every record served in this dataset. */
        country: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          /** @description The changes-feed cursor that follows this snapshot (as in the trailer), known before the first record: send it as `since` to `GET /api/v1/changes` */
          'Changes-Cursor'?: string;
          /** @description Resumes this export (same snapshot, same cursor) after a dropped connection: send it as `resume`, with the last `id` received as `after` */
          'Export-Resume'?: string;
          /** @description `gzip` when the request accepted it (Accept-Encoding); absent otherwise */
          'Content-Encoding'?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "de-mueller",
           *       "name": "Praxis Dr. Müller",
           *       "legalName": null,
           *       "address": {
           *         "street": "Hauptstraße 1",
           *         "city": "Berlin",
           *         "state": null,
           *         "postalCode": "10115",
           *         "country": "DE"
           *       },
           *       "location": {
           *         "latitude": 52.52,
           *         "longitude": 13.405
           *       },
           *       "phone": "+4915123456789",
           *       "phoneType": "mobile",
           *       "additionalPhones": [],
           *       "email": "praxis@example.com",
           *       "website": "https://praxis.example.com/",
           *       "googleMapsUrl": null,
           *       "primaryType": "Arztpraxis",
           *       "specialties": [
           *         "Allgemeinmedizin",
           *         "Sportmedizin"
           *       ],
           *       "rating": 4.5,
           *       "reviewCount": 12,
           *       "whatsappEligible": true,
           *       "verified": true,
           *       "workingHours": {
           *         "Montag": [
           *           {
           *             "open": "08:00",
           *             "close": "12:00"
           *           }
           *         ]
           *       },
           *       "profileUrl": "https://www.doctor-directory.example/en/doctors/de/berlin/praxis-dr-mueller"
           *     }
           */
          'application/x-ndjson': components['schemas']['ExportLine'];
        };
      };
      /** @description A query or path parameter is invalid; every bad parameter is named in `errors` */
      400: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The API key is missing, malformed, unknown or revoked. Do not retry with the same key. */
      401: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The key's request window is exhausted; wait `Retry-After` seconds before retrying */
      429: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Whole seconds to wait; never earlier than the end of the window */
          'Retry-After'?: number;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The request line and headers are too large (answered before the request is read, so without the other headers); shorten the URL or the headers */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description An unexpected server error; the body never carries internals. Quote `X-Request-Id` when reporting it. */
      500: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Temporarily unavailable (search cluster or rate-limit store); retry later */
      503: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Any other refusal by the HTTP layer (such as 408 Request Timeout or 414 URI Too Long), as a problem whose `type` is `about:blank` */
      default: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listCities: {
    parameters: {
      query: {
        /**
         * @description Dataset code, case-insensitive: de, es, fr, gb, it, mx or pt (as in search). fr, gb and mx list no cities. Listed lowercase; uppercase (`DE`) is accepted too.
         * @example de
         */
        country: 'de' | 'es' | 'fr' | 'gb' | 'it' | 'mx' | 'pt';
        /** @description Prefix of the city name or slug, case- and accent-insensitive (e.g. "san seb", "munc"). Blank means every city. */
        q?: string;
        /** @description Cities to return, 1 to 500; the ones with most records come first. */
        limit?: number;
      };
      header?: {
        /** @description ETags of answers you already have (or `*`); when one matches the current answer, the API answers 304 with no body, not counted against the rate limit. Weak tags (`W/"…"`) compare equal to their strong form. */
        'If-None-Match'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "cities": [
           *         {
           *           "slug": "berlin",
           *           "name": "Berlin",
           *           "count": 3120
           *         },
           *         {
           *           "slug": "muenchen",
           *           "name": "München",
           *           "count": 1711
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['CityList'];
        };
      };
      /** @description Not modified: the answer still has an ETag sent in If-None-Match. No body; every header the 200 would carry. Not counted against the rate limit. */
      304: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A query or path parameter is invalid; every bad parameter is named in `errors` */
      400: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The API key is missing, malformed, unknown or revoked. Do not retry with the same key. */
      401: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The key's request window is exhausted; wait `Retry-After` seconds before retrying */
      429: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Whole seconds to wait; never earlier than the end of the window */
          'Retry-After'?: number;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The request line and headers are too large (answered before the request is read, so without the other headers); shorten the URL or the headers */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description An unexpected server error; the body never carries internals. Quote `X-Request-Id` when reporting it. */
      500: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Temporarily unavailable (search cluster or rate-limit store); retry later */
      503: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Any other refusal by the HTTP layer (such as 408 Request Timeout or 414 URI Too Long), as a problem whose `type` is `about:blank` */
      default: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listSpecialties: {
    parameters: {
      query?: {
        /**
         * @description Optional dataset code, case-insensitive: de, es, fr, gb, it, mx or pt (as in search). With it, only the codes of that dataset’s records are listed, each with its count; without it, the whole vocabulary. Listed lowercase; uppercase (`DE`) is accepted too.
         * @example de
         */
        country?: 'de' | 'es' | 'fr' | 'gb' | 'it' | 'mx' | 'pt';
        /** @description Page language of the labels: en, de, es, fr, it, pt (case-insensitive); default en. */
        lang?: 'en' | 'de' | 'es' | 'fr' | 'it' | 'pt';
      };
      header?: {
        /** @description ETags of answers you already have (or `*`); when one matches the current answer, the API answers 304 with no body, not counted against the rate limit. Weak tags (`W/"…"`) compare equal to their strong form. */
        'If-None-Match'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "specialties": [
           *         {
           *           "code": "general-practice",
           *           "label": "Allgemeinmedizin",
           *           "count": 5210
           *         },
           *         {
           *           "code": "dentistry",
           *           "label": "Zahnmedizin",
           *           "count": 2980
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['SpecialtyList'];
        };
      };
      /** @description Not modified: the answer still has an ETag sent in If-None-Match. No body; every header the 200 would carry. Not counted against the rate limit. */
      304: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A query or path parameter is invalid; every bad parameter is named in `errors` */
      400: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The API key is missing, malformed, unknown or revoked. Do not retry with the same key. */
      401: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The key's request window is exhausted; wait `Retry-After` seconds before retrying */
      429: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Whole seconds to wait; never earlier than the end of the window */
          'Retry-After'?: number;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The request line and headers are too large (answered before the request is read, so without the other headers); shorten the URL or the headers */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description An unexpected server error; the body never carries internals. Quote `X-Request-Id` when reporting it. */
      500: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Temporarily unavailable (search cluster or rate-limit store); retry later */
      503: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Any other refusal by the HTTP layer (such as 408 Request Timeout or 414 URI Too Long), as a problem whose `type` is `about:blank` */
      default: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  suggest: {
    parameters: {
      query: {
        /**
         * @description Dataset code, case-insensitive: de, es, fr, gb, it, mx or pt (as in search). Listed lowercase; uppercase (`DE`) is accepted too.
         * @example de
         */
        country: 'de' | 'es' | 'fr' | 'gb' | 'it' | 'mx' | 'pt';
        /** @description The text typed so far, trimmed, 1 to 100 characters; case- and accent-insensitive, the last word a prefix (e.g. "mül", "zahn", "san seb"). */
        q: string;
        /** @description Suggestions to return, 1 to 20; default 8. */
        limit?: number;
        /** @description Page language of specialty labels: en, de, es, fr, it, pt (case-insensitive); default en. Typed text matches labels of every language. */
        lang?: 'en' | 'de' | 'es' | 'fr' | 'it' | 'pt';
      };
      header?: {
        /** @description ETags of answers you already have (or `*`); when one matches the current answer, the API answers 304 with no body, not counted against the rate limit. Weak tags (`W/"…"`) compare equal to their strong form. */
        'If-None-Match'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "suggestions": [
           *         {
           *           "type": "specialty",
           *           "code": "general-practice",
           *           "label": "General practice"
           *         },
           *         {
           *           "type": "city",
           *           "citySlug": "muenchen",
           *           "name": "München"
           *         },
           *         {
           *           "type": "doctor",
           *           "id": "de-mueller",
           *           "name": "Praxis Dr. Müller",
           *           "city": "Berlin"
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['SuggestionList'];
        };
      };
      /** @description Not modified: the answer still has an ETag sent in If-None-Match. No body; every header the 200 would carry. Not counted against the rate limit. */
      304: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A query or path parameter is invalid; every bad parameter is named in `errors` */
      400: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The API key is missing, malformed, unknown or revoked. Do not retry with the same key. */
      401: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The key's request window is exhausted; wait `Retry-After` seconds before retrying */
      429: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Whole seconds to wait; never earlier than the end of the window */
          'Retry-After'?: number;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The request line and headers are too large (answered before the request is read, so without the other headers); shorten the URL or the headers */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description An unexpected server error; the body never carries internals. Quote `X-Request-Id` when reporting it. */
      500: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Temporarily unavailable (search cluster or rate-limit store); retry later */
      503: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Any other refusal by the HTTP layer (such as 408 Request Timeout or 414 URI Too Long), as a problem whose `type` is `about:blank` */
      default: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listFacetValues: {
    parameters: {
      query: {
        /**
         * @description Dataset code, case-insensitive: de, es, fr, gb, it, mx or pt (as in search). fr, gb and mx have no values. Listed lowercase; uppercase (`DE`) is accepted too.
         * @example de
         */
        country: 'de' | 'es' | 'fr' | 'gb' | 'it' | 'mx' | 'pt';
        /** @description Prefix of the value or its label, case- and accent-insensitive (e.g. "san seb", "zahn"). Blank means every value. */
        q?: string;
        /** @description Values to return, 1 to 100; the ones with most records come first. */
        limit?: number;
        /** @description Page language of the specialty labels: en, de, es, fr, it, pt (case-insensitive); default en. */
        lang?: 'en' | 'de' | 'es' | 'fr' | 'it' | 'pt';
      };
      header?: {
        /** @description ETags of answers you already have (or `*`); when one matches the current answer, the API answers 304 with no body, not counted against the rate limit. Weak tags (`W/"…"`) compare equal to their strong form. */
        'If-None-Match'?: string;
      };
      path: {
        /** @description The facet whose values to list */
        name:
          | 'specialty'
          | 'city'
          | 'verified'
          | 'whatsapp'
          | 'language'
          | 'acceptingNewPatients'
          | 'wheelchairAccessible'
          | 'insurance'
          | 'openNow';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "values": [
           *         {
           *           "value": "muenchen",
           *           "count": 1711,
           *           "label": "München"
           *         },
           *         {
           *           "value": "muenster",
           *           "count": 402,
           *           "label": "Münster"
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['FacetValueList'];
        };
      };
      /** @description Not modified: the answer still has an ETag sent in If-None-Match. No body; every header the 200 would carry. Not counted against the rate limit. */
      304: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A query or path parameter is invalid; every bad parameter is named in `errors` */
      400: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The API key is missing, malformed, unknown or revoked. Do not retry with the same key. */
      401: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The key's request window is exhausted; wait `Retry-After` seconds before retrying */
      429: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Whole seconds to wait; never earlier than the end of the window */
          'Retry-After'?: number;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The request line and headers are too large (answered before the request is read, so without the other headers); shorten the URL or the headers */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description An unexpected server error; the body never carries internals. Quote `X-Request-Id` when reporting it. */
      500: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Temporarily unavailable (search cluster or rate-limit store); retry later */
      503: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Any other refusal by the HTTP layer (such as 408 Request Timeout or 414 URI Too Long), as a problem whose `type` is `about:blank` */
      default: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  listDatasets: {
    parameters: {
      query?: {
        /**
         * @description Optional dataset code, case-insensitive: de, es, fr, gb, it, mx or pt (as in search). With it, only that dataset is listed; without it, every dataset with served records. Listed lowercase; uppercase (`DE`) is accepted too.
         * @example de
         */
        country?: 'de' | 'es' | 'fr' | 'gb' | 'it' | 'mx' | 'pt';
      };
      header?: {
        /** @description ETags of answers you already have (or `*`); when one matches the current answer, the API answers 304 with no body, not counted against the rate limit. Weak tags (`W/"…"`) compare equal to their strong form. */
        'If-None-Match'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "asOf": "2026-11-29T10:15:00.000Z",
           *       "windowDays": 90,
           *       "windowStart": "2026-08-31T10:15:00.000Z",
           *       "datasets": [
           *         {
           *           "country": "de",
           *           "records": 182340,
           *           "lastObservedAt": "2026-11-29T09:58:12.000Z",
           *           "observedInWindow": 177443,
           *           "coverage": 0.9731
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['DatasetList'];
        };
      };
      /** @description Not modified: the answer still has an ETag sent in If-None-Match. No body; every header the 200 would carry. Not counted against the rate limit. */
      304: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Strong entity tag of this answer (a hash of its exact body); send it back in `If-None-Match` to get 304 while the answer is unchanged */
          ETag?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A query or path parameter is invalid; every bad parameter is named in `errors` */
      400: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The API key is missing, malformed, unknown or revoked. Do not retry with the same key. */
      401: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The key's request window is exhausted; wait `Retry-After` seconds before retrying */
      429: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description Whole seconds to wait; never earlier than the end of the window */
          'Retry-After'?: number;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description The request line and headers are too large (answered before the request is read, so without the other headers); shorten the URL or the headers */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description An unexpected server error; the body never carries internals. Quote `X-Request-Id` when reporting it. */
      500: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Temporarily unavailable (search cluster or rate-limit store); retry later */
      503: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description Requests allowed per window for this key */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the current window */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the current window resets */
          'RateLimit-Reset'?: number;
          /** @description The key's quota policy, an RFC 8941 structured field (IETF draft-ietf-httpapi-ratelimit-headers): `"key";q=<requests per window>;w=<window seconds>` (one policy, named `key`; parse it as a List, later versions may add policies) */
          'RateLimit-Policy'?: string;
          /** @description What is left of the policy, an RFC 8941 structured field (same draft): `"key";r=<requests remaining>;t=<seconds until the window resets>` */
          RateLimit?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description Any other refusal by the HTTP layer (such as 408 Request Timeout or 414 URI Too Long), as a problem whose `type` is `about:blank` */
      default: {
        headers: {
          /** @description The id (a UUID) the server gave this request, as its logs record it: quote it when reporting a problem */
          'X-Request-Id'?: string;
          /** @description `private, no-cache` on 200 and 304 (only the client may keep the answer, and must revalidate it before each use); `no-store` on errors */
          'Cache-Control'?: string;
          /** @description The request headers that carry the API key: the answer depends on the key */
          Vary?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  doctorUpserted: {
    parameters: {
      query?: never;
      header: {
        /** @description The delivery id (`msg_…`), the same on every retry: deduplicate by it */
        'webhook-id': string;
        /** @description Unix seconds of this attempt; refuse one far from your clock (e.g. 5 minutes) */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<raw body>` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); Standard Webhooks libraries verify it */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['DoctorChangeEvent'];
      };
    };
    responses: {
      /** @description Received (any 2xx status); nothing in the body is read */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not accepted: the delivery is retried */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  doctorDeleted: {
    parameters: {
      query?: never;
      header: {
        /** @description The delivery id (`msg_…`), the same on every retry: deduplicate by it */
        'webhook-id': string;
        /** @description Unix seconds of this attempt; refuse one far from your clock (e.g. 5 minutes) */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<raw body>` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); Standard Webhooks libraries verify it */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['DoctorChangeEvent'];
      };
    };
    responses: {
      /** @description Received (any 2xx status); nothing in the body is read */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not accepted: the delivery is retried */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookTest: {
    parameters: {
      query?: never;
      header: {
        /** @description The delivery id (`msg_…`), the same on every retry: deduplicate by it */
        'webhook-id': string;
        /** @description Unix seconds of this attempt; refuse one far from your clock (e.g. 5 minutes) */
        'webhook-timestamp': string;
        /** @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<raw body>` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); Standard Webhooks libraries verify it */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookTestEvent'];
      };
    };
    responses: {
      /** @description Received (any 2xx status); nothing in the body is read */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not accepted: the delivery is retried */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}

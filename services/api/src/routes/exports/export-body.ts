import {
  exportTrailerLine,
  exportUnitDue,
  type CountryCode,
  type Doctor,
  type ListedPlace,
} from '@directory/domain';

/**
 * The most text one chunk holds (a page of a thousand records is about 600 KB): the socket then takes
 * a slow client's bytes a chunk at a time, so a client reading a few hundred bytes a second is still
 * seen making progress well within the stall limit, and little waits in memory.
 */
export const EXPORT_CHUNK_CHARS = 64 * 1024;

/** Whether one more request unit was charged, or why the export has to stop. */
export type UnitCharge = { ok: true } | { ok: false; reason: string };

export type ExportBodyOptions = {
  country: CountryCode;
  changesCursor: string;
  /** The snapshot's places, page by page; stopping early ends the iteration (its `finally` runs). */
  pages: AsyncIterable<ReadonlyArray<ListedPlace>>;
  /** One record as search writes it (without the newline). */
  writeRecord: (doctor: Doctor) => string;
  /** Charges the next request unit; called before each further started EXPORT_RECORDS_PER_UNIT records. */
  chargeUnit: () => Promise<UnitCharge>;
  /** Asked after each page the client took: why the export must end before the next one, if it must. */
  endReason: () => string | undefined;
};

/**
 * The NDJSON body of an export, a chunk (at most a page of records, about EXPORT_CHUNK_CHARS at most)
 * at a time, so a slow client holds back the reading of the store (backpressure) and nothing buffers the whole export. It ends with the
 * trailer: complete, or where it stopped because the quota ran out or a limit of exports was reached
 * (the longest duration, a lost slot): the client resumes from its last record.
 */
export async function* exportBody(options: ExportBodyOptions): AsyncGenerator<string, void, undefined> {
  const { country, changesCursor } = options;
  let records = 0;
  for await (const page of options.pages) {
    let chunk = '';
    for (const place of page) {
      if (exportUnitDue(records)) {
        if (chunk !== '') yield chunk;
        chunk = '';
        const charged = await options.chargeUnit();
        if (!charged.ok) {
          yield exportTrailerLine({
            country,
            records,
            complete: false,
            reason: charged.reason,
            changesCursor,
          });
          return;
        }
      }
      chunk += `${options.writeRecord(place.doctor)}\n`;
      records += 1;
      if (chunk.length >= EXPORT_CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk !== '') yield chunk;
    const reason = options.endReason();
    if (reason !== undefined) {
      yield exportTrailerLine({ country, records, complete: false, reason, changesCursor });
      return;
    }
  }
  yield exportTrailerLine({ country, records, complete: true, changesCursor });
}

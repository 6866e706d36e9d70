import {
  exportTrailerLine,
  exportUnitDue,
  type CountryCode,
  type Doctor,
  type ListedPlace,
} from '@directory/domain';

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
};

/**
 * The NDJSON body of an export, a chunk (up to a page of records) at a time, so a slow client holds
 * back the reading of the store (backpressure) and nothing buffers the whole export. It ends with the
 * trailer: complete, or where it stopped because the quota ran out (the client resumes from its last
 * record later).
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
    }
    if (chunk !== '') yield chunk;
  }
  yield exportTrailerLine({ country, records, complete: true, changesCursor });
}

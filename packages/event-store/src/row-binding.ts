import { sql, type RawBuilder } from 'kysely';
import { utf8Lines } from '@directory/domain';

/*
 * How the store's multi-row writes bind their rows: one array parameter per column, unnested by
 * PostgreSQL (`unnest(a::text[], b::bigint[], …) as v(a, b, …)`, rows in array order). JSON columns
 * travel as one text of lines instead: pg's array escaping of documents is costly JavaScript (measured by
 * `npm run bench:ingest`, docs/benchmarks.md, "What was tried"), and one JSON value unpacked by
 * json_to_recordset is parsed character by character, where a split line is only validated. That text is
 * bound as its UTF-8 bytes (pg sends a Buffer as it is, and PostgreSQL reads a binary `text` parameter as
 * its bytes), never as one joined JavaScript string: see `utf8Lines`.
 */

/** One column of `rows` as an array parameter (cast it in SQL: `${columnOf(…)}::text[]`). */
export function columnOf<Row, Value>(
  rows: ReadonlyArray<Row>,
  value: (row: Row) => Value,
): RawBuilder<Value[]> {
  return sql.val(rows.map(value));
}

/**
 * JSON texts made by JSON.stringify (which never writes a raw newline) as one `json[]` expression: sent
 * as the UTF-8 bytes of one text of lines and split by PostgreSQL.
 */
export function jsonColumnOf(texts: ReadonlyArray<string>): RawBuilder<unknown> {
  return sql`string_to_array(${utf8Lines(texts, { finalNewline: false })}, E'\n')::json[]`;
}

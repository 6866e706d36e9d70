const NEWLINE = 0x0a;

/**
 * Texts as one UTF-8 buffer, one per line: how the store binds JSON columns (split again by PostgreSQL)
 * and how a bulk body reaches Elasticsearch. Each text is encoded straight into the buffer: building
 * the joined string first (join, or `+=` and the flattening it implies) costs more CPU per megabyte
 * (measured by `npm run bench:reindex`, docs/benchmarks.md), and a replay sends gigabytes. The texts
 * must not hold a newline (JSON.stringify output never does); with `finalNewline` every line ends with
 * one (NDJSON), without it they only separate.
 */
export function utf8Lines(texts: ReadonlyArray<string>, options: { finalNewline: boolean }): Buffer {
  let size = options.finalNewline ? texts.length : Math.max(texts.length - 1, 0); // the newlines
  for (const text of texts) size += Buffer.byteLength(text);
  const buffer = Buffer.allocUnsafe(size);
  let offset = 0;
  texts.forEach((text, index) => {
    if (index > 0) buffer[offset++] = NEWLINE;
    offset += buffer.write(text, offset);
  });
  if (options.finalNewline && texts.length > 0) buffer[offset++] = NEWLINE;
  return buffer;
}

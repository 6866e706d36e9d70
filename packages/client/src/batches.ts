/** The API's bounds on one batch get (docs/api.md, "Batch get"). */
export const MAX_BATCH_ENTRIES = 100;
export const MAX_BATCH_CHARACTERS = 16_384;

/**
 * `ids` cut into batches the API accepts: at most 100 entries and 16,384 characters (entries and the commas
 * between them) each, in order. An entry longer than a whole batch still gets a batch of its own, for the
 * API to refuse by name.
 */
export function splitIntoBatches(ids: readonly string[]): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let characters = 0;
  for (const id of ids) {
    const added = current.length === 0 ? id.length : id.length + 1;
    if (
      current.length > 0 &&
      (current.length >= MAX_BATCH_ENTRIES || characters + added > MAX_BATCH_CHARACTERS)
    ) {
      batches.push(current);
      current = [];
      characters = 0;
    }
    characters += current.length === 0 ? id.length : id.length + 1;
    current.push(id);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

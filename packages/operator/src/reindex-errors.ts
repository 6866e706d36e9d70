/** What a reindex throws besides the lock's refusal (reindex-lock.ts) and the engines' own errors. */

export class ReindexVerificationError extends Error {
  override name = 'ReindexVerificationError';
}

/** The new index did not reach the required health in time: the alias was not moved. */
export class ReindexHealthError extends Error {
  override name = 'ReindexHealthError';
}

/** The swap request failed and the alias could not be read afterwards: where it points is unknown. */
export class ReindexSwapUnknownError extends Error {
  override name = 'ReindexSwapUnknownError';
  constructor(alias: string, newIndex: string, cause: unknown) {
    super(
      `the swap of alias ${alias} to ${newIndex} got no answer ` +
        `(${cause instanceof Error ? cause.message : String(cause)}) and the alias could not be read: it serves ` +
        `either ${newIndex} or the previous index, and both are kept. Run the reindex again: it keeps the ` +
        'index the alias serves, deletes the other and rebuilds.',
      { cause },
    );
  }
}

/**
 * The alias already serves the new index, but catching up the changes written to the previous one
 * during the swap failed: the new index may miss them. The previous index is kept; running the reindex
 * again rebuilds from the store (and deletes the kept index as a leftover).
 */
export class ReindexCatchUpError extends Error {
  override name = 'ReindexCatchUpError';
  constructor(
    readonly alias: string,
    readonly newIndex: string,
    readonly previousIndices: ReadonlyArray<string>,
    cause: unknown,
  ) {
    super(
      `alias ${alias} now points at ${newIndex}, but catching up the changes written during the swap failed ` +
        `(${cause instanceof Error ? cause.message : String(cause)}); it may miss them. ` +
        `Previous index kept: ${previousIndices.join(', ') || 'none'}. Run the reindex again: it rebuilds from the store.`,
      { cause },
    );
  }
}

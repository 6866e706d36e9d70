/**
 * Searches that one piece of code starts side by side travel together: a request that needs several
 * searches at once (a typeahead's two doctors lists, a page and its facets, an empty page's suggestions)
 * starts them through one batcher, and those sent in the same synchronous stretch of code go to
 * Elasticsearch as one multi-search instead of one round trip each. A search sent alone is sent alone.
 *
 * Each caller still gets its own answer or its own error: one failed search of a batch fails only its
 * caller, and a failure of the round trip itself fails every caller of it. A batcher belongs to the code
 * that made it (the directory makes one a call), so one API request's searches never wait for, or share
 * a fate with, another request's.
 */
export type SearchBatcher<Request, Answer> = {
  /** `request`'s answer, sent with whatever else is asked for in this turn. */
  send(request: Request): Promise<Answer>;
};

/** One search of a batch: its answer, or the error it failed with alone. */
export type BatchOutcome<Answer> = { ok: true; response: Answer } | { ok: false; error: Error };

export type SearchBatchTransport<Request, Answer> = {
  /** Sends one search. */
  one(request: Request): Promise<Answer>;
  /** Sends several in one round trip: one outcome a request, in their order. */
  many(requests: ReadonlyArray<Request>): Promise<ReadonlyArray<BatchOutcome<Answer>>>;
};

type Waiter<Request, Answer> = {
  request: Request;
  resolve: (answer: Answer) => void;
  reject: (error: unknown) => void;
};

export function createSearchBatcher<Request, Answer>(
  transport: SearchBatchTransport<Request, Answer>,
): SearchBatcher<Request, Answer> {
  let gathering: Array<Waiter<Request, Answer>> | null = null;

  function dispatch(batch: ReadonlyArray<Waiter<Request, Answer>>): void {
    const [only] = batch;
    if (batch.length === 1 && only !== undefined) {
      transport.one(only.request).then(only.resolve, only.reject);
      return;
    }
    transport.many(batch.map((waiter) => waiter.request)).then(
      (outcomes) => {
        batch.forEach((waiter, position) => {
          const outcome = outcomes[position];
          if (outcome === undefined) waiter.reject(new Error('the multi-search left a search unanswered'));
          else if (outcome.ok) waiter.resolve(outcome.response);
          else waiter.reject(outcome.error);
        });
      },
      (error: unknown) => {
        for (const waiter of batch) waiter.reject(error);
      },
    );
  }

  return {
    send(request) {
      return new Promise<Answer>((resolve, reject) => {
        if (gathering === null) {
          const batch: Array<Waiter<Request, Answer>> = [];
          gathering = batch;
          // Runs once the code that asked for this search has asked for all it starts side by side.
          queueMicrotask(() => {
            gathering = null;
            dispatch(batch);
          });
        }
        gathering.push({ request, resolve, reject });
      });
    },
  };
}

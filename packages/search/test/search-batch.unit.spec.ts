import { describe, expect, it } from 'vitest';
import { createSearchBatcher, type BatchOutcome } from '../src/search-batch.js';

// The batcher in isolation: the transport is two plain functions that record what they were sent, standing
// for one search and a multi-search. (directory.service.int.spec.ts runs it against the real Elasticsearch.)

type Sent = { kind: 'one'; request: string } | { kind: 'many'; requests: string[] };

function setUp(failing: ReadonlySet<string> = new Set(), roundTripError?: Error) {
  const sent: Sent[] = [];
  const batcher = createSearchBatcher<string, string>({
    one: (request) => {
      sent.push({ kind: 'one', request });
      return failing.has(request)
        ? Promise.reject(new Error(`${request} failed`))
        : Promise.resolve(`answer to ${request}`);
    },
    many: (requests) => {
      sent.push({ kind: 'many', requests: [...requests] });
      if (roundTripError !== undefined) return Promise.reject(roundTripError);
      return Promise.resolve(
        requests.map((request): BatchOutcome<string> =>
          failing.has(request)
            ? { ok: false, error: new Error(`${request} failed`) }
            : { ok: true, response: `answer to ${request}` },
        ),
      );
    },
  });
  return { batcher, sent };
}

const outcomeOf = (promise: Promise<string>) =>
  promise.then(
    (answer) => ({ answer }),
    (error: Error) => ({ error: error.message }),
  );

describe('search batcher', () => {
  it('sends the searches started side by side as one multi-search, each caller getting its own answer in order', async () => {
    const { batcher, sent } = setUp();
    const answers = await Promise.all([batcher.send('a'), batcher.send('b'), batcher.send('c')]);
    expect(answers).toEqual(['answer to a', 'answer to b', 'answer to c']);
    expect(sent).toEqual([{ kind: 'many', requests: ['a', 'b', 'c'] }]);
  });

  it('sends a search asked for alone as one search, and never joins searches of different turns', async () => {
    const { batcher, sent } = setUp();
    expect(await batcher.send('a')).toBe('answer to a');
    const later = batcher.send('b');
    await Promise.resolve();
    const muchLater = batcher.send('c');
    expect(await Promise.all([later, muchLater])).toEqual(['answer to b', 'answer to c']);
    expect(sent).toEqual([
      { kind: 'one', request: 'a' },
      { kind: 'one', request: 'b' },
      { kind: 'one', request: 'c' },
    ]);
  });

  it('fails only the caller whose search failed, and answers the others of its batch', async () => {
    const { batcher } = setUp(new Set(['b']));
    const outcomes = await Promise.all(['a', 'b', 'c'].map((request) => outcomeOf(batcher.send(request))));
    expect(outcomes).toEqual([{ answer: 'answer to a' }, { error: 'b failed' }, { answer: 'answer to c' }]);
    expect(await outcomeOf(batcher.send('b'))).toEqual({ error: 'b failed' });
  });

  it('fails every caller of a round trip that failed, and the next batch is sent afresh', async () => {
    const { batcher, sent } = setUp(new Set(), new Error('no node answered'));
    const outcomes = await Promise.all(['a', 'b'].map((request) => outcomeOf(batcher.send(request))));
    expect(outcomes).toEqual([{ error: 'no node answered' }, { error: 'no node answered' }]);
    await Promise.all(['c', 'd'].map((request) => outcomeOf(batcher.send(request))));
    expect(sent).toEqual([
      { kind: 'many', requests: ['a', 'b'] },
      { kind: 'many', requests: ['c', 'd'] },
    ]);
  });

  it('fails a caller the multi-search left without an outcome instead of leaving it waiting', async () => {
    const batcher = createSearchBatcher<string, string>({
      one: (request) => Promise.resolve(request),
      many: () => Promise.resolve([{ ok: true, response: 'only one' }]),
    });
    const outcomes = await Promise.all(['a', 'b'].map((request) => outcomeOf(batcher.send(request))));
    expect(outcomes).toEqual([
      { answer: 'only one' },
      { error: 'the multi-search left a search unanswered' },
    ]);
  });
});

/**
 * A pure function of one text, remembered for the first `capacity` distinct texts it is asked about.
 * For lookups whose inputs are a small vocabulary in practice (weekday labels, specialty labels) but come
 * from crawled data, so are unbounded in principle: the common ones are computed once per process, and a
 * flood of odd ones costs memory up to `capacity` entries, never more.
 */
export function boundedMemo<Result>(
  compute: (text: string) => Result,
  capacity: number,
): (text: string) => Result {
  const remembered = new Map<string, Result>();
  return (text) => {
    // `has`, not `get() !== undefined`: undefined is a result too ("not a weekday").
    if (remembered.has(text)) return remembered.get(text) as Result;
    const result = compute(text);
    if (remembered.size < capacity) remembered.set(text, result);
    return result;
  };
}

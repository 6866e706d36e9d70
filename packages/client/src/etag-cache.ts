/**
 * The answers kept for revalidation, by URL: each 200's `ETag` and body text. The client sends the tag in
 * `If-None-Match`, and on `304 Not Modified` answers with the body kept here. Least recently used entries
 * go first once either bound is passed. Bodies are kept as text, so each hit hands out a fresh parse that
 * the caller may change freely.
 */
export type EtagCacheOptions = {
  /** How many URLs to remember (default 256). */
  maxEntries?: number;
  /** How many body characters in all (default 8 MiB worth); a body larger than this alone is not kept. */
  maxChars?: number;
};

export type CachedAnswer = { etag: string; body: string };

export class EtagCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private chars = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;

  constructor(options: EtagCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 256;
    this.maxChars = options.maxChars ?? 8 * 1024 * 1024;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The answer kept for `url`, marked as just used. */
  get(url: string): CachedAnswer | undefined {
    const entry = this.entries.get(url);
    if (entry === undefined) return undefined;
    // A Map iterates in insertion order: re-inserting makes it the most recently used.
    this.entries.delete(url);
    this.entries.set(url, entry);
    return entry;
  }

  set(url: string, answer: CachedAnswer): void {
    this.delete(url);
    if (answer.body.length > this.maxChars || this.maxEntries < 1) return;
    this.entries.set(url, answer);
    this.chars += answer.body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= entry.body.length;
    }
  }

  delete(url: string): void {
    const entry = this.entries.get(url);
    if (entry === undefined) return;
    this.entries.delete(url);
    this.chars -= entry.body.length;
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }
}

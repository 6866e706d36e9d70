import { describe, expect, it } from 'vitest';
import { defaultNodeEnv } from '../src/default-node-env.js';

describe('defaultNodeEnv', () => {
  it('is production for the compiled command, wherever it is installed', () => {
    expect(defaultNodeEnv('file:///app/dist/directory.js')).toBe('production');
    expect(defaultNodeEnv('file:///home/me/clone/dist/directory.js')).toBe('production');
    expect(defaultNodeEnv('file:///app/dist/directory.mjs')).toBe('production');
  });

  it('is development only for the TypeScript sources a checkout runs', () => {
    expect(defaultNodeEnv('file:///home/me/clone/services/directory/src/directory.ts')).toBe('development');
    expect(defaultNodeEnv('file:///home/me/clone/services/directory/src/directory.mts')).toBe('development');
    // A query string or a folder named like a source does not make compiled code a source.
    expect(defaultNodeEnv('file:///app/dist/directory.js?directory.ts')).toBe('production');
    expect(defaultNodeEnv('file:///app/src.ts/directory.js')).toBe('production');
  });

  it('is what this spec, a TypeScript source, would get', () => {
    expect(defaultNodeEnv(import.meta.url)).toBe('development');
  });
});

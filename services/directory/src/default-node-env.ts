/**
 * NODE_ENV when it is not set, by what runs: production for the compiled `directory` command (the image,
 * `npx directory`, `node dist/directory.js`), so the public development secrets are refused there;
 * development only for a checkout's TypeScript sources (`npm run …`, the demo). Anything that is not a
 * TypeScript source counts as compiled. Tests set NODE_ENV=test themselves (vitest), and their processes
 * inherit it.
 */
export function defaultNodeEnv(entryUrl: string): 'production' | 'development' {
  return /\.[cm]?ts$/.test(new URL(entryUrl).pathname) ? 'development' : 'production';
}

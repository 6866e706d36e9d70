import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isBuiltin } from 'node:module';
import { build, type Metafile, type Plugin } from 'esbuild';

/**
 * The production build (docs/development.md, "Build"): the `directory` command and every workspace it
 * imports, compiled to ES modules: `directory.js` and, for what only some commands import, shared chunks
 * under `chunks/`, so each command loads only its own code and packages (as it does from source).
 * Third-party packages stay external and are imported from node_modules at run time, so they must be
 * production dependencies of the root package.json.
 */
export const ENTRY = 'services/directory/src/directory.ts';

export type BundleResult = { entry: string; metafile: Metafile; entryBytes: number; totalBytes: number };

/** `@directory/*` and relative or absolute paths are compiled in; every other import stays external. */
const isCompiledIn = (specifier: string): boolean =>
  specifier.startsWith('@directory/') || specifier.startsWith('.') || specifier.startsWith('/');

const thirdPartyExternal: Plugin = {
  name: 'third-party-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      isCompiledIn(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};

/** `pino/file` → `pino`, `@fastify/swagger/x` → `@fastify/swagger`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** The external imports of the bundle that are neither Node built-ins nor root production dependencies. */
export function undeclaredExternals(metafile: Metafile, dependencies: Record<string, string>): string[] {
  const external = Object.values(metafile.outputs).flatMap((output) =>
    output.imports.filter((entry) => entry.external).map((entry) => entry.path),
  );
  const undeclared = external.filter(
    (specifier) => !isBuiltin(specifier) && !(packageNameOf(specifier) in dependencies),
  );
  return [...new Set(undeclared)].sort();
}

export function rootProductionDependencies(root: string): Record<string, string> {
  const manifest = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  return manifest.dependencies ?? {};
}

/**
 * Bundles `entry` (relative to `root`) into `outdir` as `directory.js` (+ `chunks/`), each with a linked
 * source map, and writes the metafile beside it (`directory.meta.json`); throws, naming them, if an
 * external import is not a root production dependency (in the image only those are installed).
 */
export async function bundle(root: string, entry: string, outdir: string): Promise<BundleResult> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: { directory: entry },
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    metafile: true,
    plugins: [thirdPartyExternal],
    logLevel: 'warning',
  });
  writeFileSync(resolve(root, outdir, 'directory.meta.json'), JSON.stringify(result.metafile));
  const undeclared = undeclaredExternals(result.metafile, rootProductionDependencies(root));
  if (undeclared.length > 0) {
    throw new Error(
      `the bundle imports packages that are not production dependencies of the root package.json ` +
        `(add them to "dependencies"): ${undeclared.join(', ')}`,
    );
  }
  const scripts = Object.entries(result.metafile.outputs).filter(([path]) => path.endsWith('.js'));
  const [entryPath, entryOutput] = scripts.find(([, output]) => output.entryPoint === entry) ?? [];
  return {
    entry: entryPath ?? '',
    metafile: result.metafile,
    entryBytes: entryOutput?.bytes ?? 0,
    totalBytes: scripts.reduce((sum, [, output]) => sum + output.bytes, 0),
  };
}

#!/usr/bin/env node
// `pnpm demo` and `pnpm parley <command>` in the repository: bundles the CLI from the workspace's sources with rolldown
// (under a second, instead of type-checking and compiling every package first), then runs the bundle. The packages'
// own builds (`pnpm build`, what npm ships) are untouched. Plain JavaScript, so it works before anything is built.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..');
// Two folders below the package, like src/cli and dist/cli, so the CLI finds its package.json (its version) and
// resolves what it loads at run time (AI SDK providers) from the package, as the built CLI does.
const outDir = join(cli, '.dev', 'cli');

const bundled = await bundle();
if (!bundled) process.exit(1);
await import(pathToFileURL(join(outDir, 'bin.mjs')).href);

/** Bundles packages/cli/src/bin.ts and the @parley sources it imports; other packages stay where pnpm put them. */
async function bundle() {
  const { build } = await import(createRequire(join(cli, 'package.json')).resolve('rolldown'));
  try {
    await build({
      input: join(cli, 'src', 'bin.ts'),
      platform: 'node',
      // The workspace packages' `@parley/source` export condition points at their TypeScript sources.
      resolve: { conditionNames: ['@parley/source', 'node', 'import', 'module', 'default'] },
      plugins: [externalDependencies(), listInputs()],
      output: { dir: outDir, format: 'esm', entryFileNames: 'bin.mjs', chunkFileNames: '[name].mjs' },
      logLevel: 'silent',
    });
    return true;
  } catch (error) {
    process.stderr.write(
      `Bundling the Parley CLI from the workspace's sources failed:\n${error?.message ?? error}\n`,
    );
    return false;
  }
}

/** Writes the bundled modules' paths to .dev/cli/inputs.json: what the bundle was made of, for a look or a test. */
function listInputs() {
  return {
    name: 'parley-list-inputs',
    generateBundle() {
      const inputs = [...this.getModuleIds()].filter((id) => !id.startsWith('\0')).sort();
      this.emitFile({
        type: 'asset',
        fileName: 'inputs.json',
        source: `${JSON.stringify(inputs, null, 2)}\n`,
      });
    },
  };
}

/** Third-party packages are imported from their installed files (by absolute path), not bundled. */
function externalDependencies() {
  return {
    name: 'parley-external-dependencies',
    async resolveId(source, importer) {
      if (/^(\.|\/|node:|@parley\/)/.test(source) || importer === undefined) return null;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      return resolved ? { id: resolved.id, external: 'absolute' } : null;
    },
  };
}

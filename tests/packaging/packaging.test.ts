/**
 * The packages as a user gets them: every package in packages/ is packed, checked (files, metadata, publint,
 * are-the-types-wrong), installed from its tarball into a fresh app outside the workspace (npm, from the registry),
 * type-checked there with strict and skipLibCheck: false under moduleResolution node16 and bundler, and run.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const exec = promisify(execFile);
const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APP_TEMPLATE = fileURLToPath(new URL('./app', import.meta.url));
const MINUTES = 60_000;

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  keywords?: string[];
  homepage?: string;
  repository?: { url?: string; directory?: string };
  bugs?: { url?: string };
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}

interface Packed {
  dir: string;
  tarball: string;
  /** The package.json inside the tarball (workspace ranges replaced). */
  manifest: Manifest;
  files: string[];
  /** The scripts of the package.json in the repository. */
  scripts: Record<string, string>;
}

async function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  try {
    const { stdout } = await exec(command, args, { cwd, maxBuffer: 64 * 1024 * 1024, env });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/** pnpm as the workspace runs it (pnpm pack replaces `workspace:` ranges with real ones). */
function pnpm(args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const script = process.env.npm_execpath;
  return script?.includes('pnpm')
    ? run(process.execPath, [script, ...args], cwd, env)
    : run('pnpm', args, cwd, env);
}

const tsc = (project: string, cwd: string) =>
  run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', project], cwd);

let work: string;
const packed: Packed[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-packaging-'));
  const dirs: string[] = [];
  const tests = JSON.parse(await readFile(join(ROOT, 'tests', 'package.json'), 'utf8')) as Manifest;
  for (const entry of await readdir(join(ROOT, 'packages'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(ROOT, 'packages', entry.name);
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;
    if (manifest.private) continue;
    // turbo builds a package before this test only when it is a dependency of the tests package.
    if (!tests.dependencies?.[manifest.name]) {
      throw new Error(`Add "${manifest.name}": "workspace:*" to the dependencies of tests/package.json.`);
    }
    dirs.push(dir);
  }
  const tarballs = join(work, 'tarballs');
  for (const dir of dirs) {
    // turbo built dist/ before this test: packing skips the prepack build (which would rebuild dist/ under the
    // feet of the tests running beside this one).
    const out = await pnpm(['pack', '--pack-destination', tarballs, '--json'], dir, {
      ...process.env,
      npm_config_ignore_scripts: 'true',
    });
    const tarball = (JSON.parse(out) as { filename: string }).filename;
    const files = (await run('tar', ['-tzf', tarball], work)).split('\n').filter(Boolean);
    const manifest = JSON.parse(
      await run('tar', ['-xzOf', tarball, 'package/package.json'], work),
    ) as Manifest;
    const source = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;
    packed.push({ dir, tarball, manifest, files, scripts: source.scripts ?? {} });
  }
}, 10 * MINUTES);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('every package', () => {
  test('ships a README (install line, docs link), the LICENSE and its metadata; runtime ranges are carets', async () => {
    const license = await readFile(join(ROOT, 'LICENSE'), 'utf8');
    expect(packed.length).toBeGreaterThanOrEqual(5);
    for (const { dir, manifest, files, tarball } of packed) {
      const where = `${manifest.name} (${dir})`;
      expect(files, `${where} must ship README.md and LICENSE`).toEqual(
        expect.arrayContaining(['package/README.md', 'package/LICENSE', 'package/package.json']),
      );
      const readme = await run('tar', ['-xzOf', tarball, 'package/README.md'], work);
      expect(readme, `${where}: the README gives the install line`).toMatch(
        new RegExp(`pnpm add (-D )?(\\S+ )*${manifest.name.replace('/', '\\/')}\\b`),
      );
      expect(readme, `${where}: the README links to the docs`).toMatch(/\]\(https:\/\/github\.com\//);
      expect(await run('tar', ['-xzOf', tarball, 'package/LICENSE'], work), `${where}: LICENSE`).toBe(
        license,
      );
      expect(manifest.license, where).toBe('MIT');
      expect(manifest.keywords?.length, `${where}: keywords`).toBeGreaterThan(0);
      expect(manifest.homepage, `${where}: homepage`).toMatch(/^https:\/\//);
      expect(manifest.bugs?.url, `${where}: bugs`).toMatch(/^https:\/\//);
      expect(manifest.repository?.url, `${where}: repository`).toMatch(/^git\+https:\/\/.*\.git$/);
      expect(manifest.repository?.directory, `${where}: repository.directory`).toBe(
        `packages/${dir.split(/[\\/]/).at(-1)}`,
      );
      for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
        expect(range, `${where}: dependency ${dependency} must be a caret range`).toMatch(/^\^\d/);
      }
      expect(manifest.dependencies?.zod, `${where}: zod must be a peer dependency, not a dependency`).toBe(
        undefined,
      );
    }
  });

  test('ships what a user runs and no more: dist/ (JavaScript and declarations), no sources, no maps, no development-only condition', () => {
    for (const { manifest, files, scripts } of packed) {
      const where = manifest.name;
      // `pnpm -r pack` on a fresh clone (no dist/ yet) builds each package before packing it.
      expect(scripts.prepack, `${where}: prepack builds the package`).toBe('pnpm run build');
      const shipped = files.filter((file) => !/^package\/(README\.md|LICENSE|package\.json)$/.test(file));
      const unexpected = shipped.filter((file) => !/^package\/(dist|bin)\/.*\.(js|d\.ts)$/.test(file));
      expect(unexpected, `${where}: only dist/ (and bin/) JavaScript and declarations ship`).toEqual([]);
      expect(
        shipped.some((file) => file.endsWith('.d.ts')),
        `${where}: declarations`,
      ).toBe(true);
      // A condition that points at src/ is for this repository's tests; the packed manifest has none.
      const conditions = JSON.stringify({
        ...manifest.exports,
        ...(manifest as { imports?: object }).imports,
      });
      expect(conditions, `${where}: no development-only export condition`).not.toContain('@parley/source');
      expect(conditions, `${where}: no export points at src/`).not.toMatch(/\.\/src\//);
    }
  });

  test('a package that imports zod declares it as a peer dependency with the range @parley/core supports', async () => {
    const core = packed.find((p) => p.manifest.name === '@parley/core');
    const range = core?.manifest.peerDependencies?.zod;
    expect(range).toMatch(/^\^\d+\.\d+\.\d+$/);
    for (const { manifest, tarball, files } of packed) {
      const sources = files.filter((file) => /^package\/dist\/.*\.js$/.test(file));
      const text = await run('tar', ['-xzOf', tarball, ...sources], work);
      if (/from ['"]zod['"]/.test(text)) expect(manifest.peerDependencies?.zod, manifest.name).toBe(range);
    }
  });

  test(
    'publint and are-the-types-wrong (ESM only) find no problem',
    async () => {
      const bin = (name: string) => join(ROOT, 'tests', 'node_modules', '.bin', name);
      for (const { tarball } of packed) {
        await run(bin('publint'), ['run', tarball, '--strict'], work);
        await run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color'], work);
      }
    },
    5 * MINUTES,
  );
});

describe('a fresh app installing the tarballs', () => {
  let app: string;
  let zodRange: string;

  beforeAll(async () => {
    app = join(work, 'app');
    await cp(APP_TEMPLATE, app, { recursive: true });
    // Every public entry point of every package, so each one's declarations are type-checked.
    const entries = packed.flatMap(({ manifest }) =>
      Object.keys(manifest.exports ?? { '.': {} })
        .filter((key) => !key.endsWith('.json'))
        .map((key) => manifest.name + key.slice(1)),
    );
    await writeFile(
      join(app, 'entries.ts'),
      `${entries.map((entry, i) => `import * as entry${i} from '${entry}';`).join('\n')}\n` +
        `export const entries = [${entries.map((_, i) => `entry${i}`).join(', ')}];\n`,
    );
    const peers = Object.assign({}, ...packed.map((p) => p.manifest.peerDependencies)) as Record<
      string,
      string
    >;
    zodRange = peers.zod as string;
    const rootManifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    // A peer that is one of the packages (the deprecated `@parley/openai/testing` re-exports `@parley/simulator`)
    // comes from its tarball, not the registry.
    const dependencies = {
      ...peers,
      ...Object.fromEntries(packed.map((p) => [p.manifest.name, `file:${p.tarball}`])),
      '@types/node': rootManifest.devDependencies['@types/node'],
    };
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module', dependencies }, null, 2),
    );
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);
  }, 10 * MINUTES);

  async function zodCopies(): Promise<string[]> {
    const found: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        if (!entry.isDirectory()) continue;
        const path = join(dir, entry.name);
        if (entry.name === 'zod' && dir.endsWith('node_modules')) found.push(path);
        else if (entry.name === 'node_modules' || entry.name.startsWith('@') || dir.endsWith('node_modules'))
          await walk(path);
      }
    };
    await walk(join(app, 'node_modules'));
    return found;
  }

  test(
    'with the newest supported zod: one zod, type-checks under node16 and bundler, the examples run',
    async () => {
      expect(await zodCopies()).toEqual([join(app, 'node_modules', 'zod')]);
      await tsc('tsconfig.node16.json', app);
      await tsc('tsconfig.bundler.json', app);
      expect(JSON.parse(await run(process.execPath, ['out/text.js'], app))).toEqual({
        status: 'shipped',
        toolOutput: JSON.stringify({ orderId: 'A1', status: 'shipped' }),
      });
      expect(JSON.parse(await run(process.execPath, ['out/realtime.js'], app))).toEqual({
        tools: ['21 °C in Oslo'],
        transcript: 'It is 21 degrees in Oslo.',
      });
    },
    10 * MINUTES,
  );

  test(
    'with the lowest supported zod: type-checks and runs a tool',
    async () => {
      const lowest = zodRange.replace(/^\^/, '');
      await run(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          '--loglevel=error',
          '--save-exact',
          `zod@${lowest}`,
        ],
        app,
      );
      const installed = JSON.parse(await readFile(join(app, 'node_modules', 'zod', 'package.json'), 'utf8'));
      expect(installed.version).toBe(lowest);
      expect(await zodCopies()).toEqual([join(app, 'node_modules', 'zod')]);
      await tsc('tsconfig.node16.json', app);
      expect(JSON.parse(await run(process.execPath, ['out/text.js'], app))).toMatchObject({
        status: 'shipped',
      });
    },
    10 * MINUTES,
  );
});

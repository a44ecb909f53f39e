import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const testsDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(testsDir, '..');
const blocksDir = join(testsDir, 'docs', '.blocks');

/** The Markdown a user reads: the README, docs/ and each package's README. */
function markdownFiles(): string[] {
  const files = [join(root, 'README.md')];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(root, 'docs'));
  for (const pkg of readdirSync(join(root, 'packages'))) files.push(join(root, 'packages', pkg, 'README.md'));
  return files.filter((file) => {
    try {
      readFileSync(file);
      return true;
    } catch {
      return false;
    }
  });
}

interface Block {
  doc: string;
  line: number;
  code: string;
  /** ```ts file=my-provider.ts: the block is that file, so a later block can import it ('./my-provider.js'). */
  file?: string;
}

/** Every ```ts block, except those marked ```ts fragment (a piece of a larger program, said so to the reader). */
function typeScriptBlocks(file: string): { blocks: Block[]; fragments: number } {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: Block[] = [];
  let fragments = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(ts|typescript)(\s+fragment|\s+file=([\w.-]+\.ts))?\s*$/.exec(lines[i] ?? '');
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end] ?? '')) end += 1;
    const code = lines.slice(start, end).join('\n');
    if (open[2] && !open[3]) fragments += 1;
    else blocks.push({ doc: relative(root, file), line: start, code, file: open[3] });
    i = end;
  }
  return { blocks, fragments };
}

// A loaded two-core machine can take a while; alone, this takes a few seconds.
test('every TypeScript block in the README, docs/ and the package READMEs compiles as written (or is marked a fragment)', {
  timeout: 120_000,
}, () => {
  rmSync(blocksDir, { recursive: true, force: true });
  mkdirSync(blocksDir, { recursive: true });
  const where = new Map<string, Block>();
  let fragments = 0;
  for (const file of markdownFiles()) {
    const found = typeScriptBlocks(file);
    fragments += found.fragments;
    for (const block of found.blocks) {
      const name = join(blocksDir, block.file ?? `${block.doc.replace(/[^\w]+/g, '_')}_${block.line}.ts`);
      if (where.has(name)) throw new Error(`${block.doc}:${block.line}: a second block is ${block.file}`);
      // Each block is its own module, so names declared in two blocks do not collide.
      writeFileSync(name, `${block.code}\nexport {};\n`);
      where.set(name, block);
    }
  }
  expect(where.size, 'the docs hold TypeScript blocks').toBeGreaterThan(40);

  const config = ts.getParsedCommandLineOfConfigFile(
    join(testsDir, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tests/tsconfig.json did not parse');
  // Against the built declarations (what a user installs), not the sources: faster, and what a user's compiler sees.
  // Only the blocks are checked (no declaration emit, no other file's diagnostics), which keeps this test fast.
  const options = { ...config.options, customConditions: [], noEmit: true, declaration: false };
  const program = ts.createProgram([...where.keys()], options);
  const blockFiles = program.getSourceFiles().filter((file) => where.has(file.fileName));
  expect(blockFiles.length, 'every block is in the program').toBe(where.size);
  const diagnostics = [
    ...config.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...blockFiles.flatMap((file) => [
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    ]),
  ];
  const problems = diagnostics.map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    const block = diagnostic.file && where.get(diagnostic.file.fileName);
    if (!(diagnostic.file && block)) return message;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    return `${block.doc}:${block.line + line + 1}: ${message}`;
  });
  expect(problems, `blocks that do not compile (${fragments} marked as fragments)`).toEqual([]);
});

import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { parleyBin, runParley } from './run-parley.js';

describe('parley usage', () => {
  test('--version prints the package version', async () => {
    const { version } = JSON.parse(
      await readFile(parleyBin.replace(/bin\/parley\.js$/, 'package.json'), 'utf8'),
    );
    expect(await runParley(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  test('help lists every command', async () => {
    const { code, stdout } = await runParley(['help']);
    expect(code).toBe(0);
    for (const command of ['demo', 'chat', 'voice', 'phone', 'simulator'])
      expect(stdout).toMatch(new RegExp(`^ {2}${command} +\\S`, 'm'));
  });

  test('`help <command>` and `<command> --help` print that command’s help', async () => {
    const viaHelp = await runParley(['help', 'demo']);
    const viaFlag = await runParley(['demo', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(/^Usage: parley demo \[--out FILE\]/);
    expect(viaHelp.stdout).toContain('--text');
    expect(viaFlag).toEqual(viaHelp);
  });

  test.each([
    [['demoo'], 'parley: unknown command "demoo"; did you mean "demo"?'],
    [['hlep'], 'parley: unknown command "hlep"; did you mean "help"?'],
    [['demo', '--txt'], 'parley demo: unknown flag --txt; did you mean --text?'],
    [
      ['--verison'],
      'parley: unknown flag --verison; did you mean --version? (or a command first: parley <command> --verison)',
    ],
    [['simulator', '--speed', '0'], 'parley simulator: --speed 0 is not valid; give a number > 0.'],
    [
      ['simulator', '--auth', 'azur'],
      'parley simulator: --auth azur is not one of openai, azure, none; did you mean --auth azure?',
    ],
    [['help', 'simulater'], 'parley: unknown command "simulater"; did you mean "simulator"?'],
  ])('`parley %j` names the nearest valid one in one line and exits 2', async (args, message) => {
    expect(await runParley(args)).toEqual({ code: 2, stdout: '', stderr: `${message}\n` });
  });
});

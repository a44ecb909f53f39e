import { ParleyError } from '@parley/core';
import type { CliIO, CommandSpec } from './cli/command.js';
import { CliUsageError } from './cli/errors.js';
import { commandHelp, generalHelp } from './cli/help.js';
import { nearest } from './cli/nearest.js';
import { parseFlags } from './cli/parse-flags.js';
import { cliVersion } from './cli/version.js';
import { COMMANDS } from './commands/index.js';
import { stderrOutput, stdoutOutput } from './output.js';

const GLOBAL_FLAGS = ['--help', '--version'];

/** Runs the `parley` command with `argv` (without node and script); resolves with the exit code. */
export async function main(argv: readonly string[], io: Partial<CliIO> = {}): Promise<number> {
  const full: CliIO = {
    out: io.out ?? stdoutOutput,
    err: io.err ?? stderrOutput,
    stdin: io.stdin ?? process.stdin,
    env: io.env ?? process.env,
  };
  try {
    return await dispatch(argv, full);
  } catch (error) {
    if (error instanceof CliUsageError) {
      full.err.line(error.message);
      return 2;
    }
    if (error instanceof ParleyError) {
      full.err.line(`parley: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function findCommand(name: string): CommandSpec {
  const command = COMMANDS.find((c) => c.name === name);
  if (command) return command;
  const names = [...COMMANDS.map((c) => c.name), 'help'];
  throw new CliUsageError(`parley: unknown command "${name}"; did you mean "${nearest(name, names)}"?`);
}

async function dispatch(argv: readonly string[], io: CliIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h') {
    io.out.line(generalHelp(COMMANDS));
    return 0;
  }
  if (first === '--version' || first === '-v') {
    io.out.line(cliVersion());
    return 0;
  }
  if (first.startsWith('-')) {
    throw new CliUsageError(
      `parley: unknown flag ${first}; did you mean ${nearest(first, GLOBAL_FLAGS)}? (or a command first: parley <command> ${first})`,
    );
  }
  if (first === 'help') {
    const [topic, ...extra] = rest;
    if (extra.length > 0) throw new CliUsageError(`parley help: give one command, e.g. parley help ${topic}`);
    io.out.line(topic === undefined ? generalHelp(COMMANDS) : commandHelp(findCommand(topic)));
    return 0;
  }
  const command = findCommand(first);
  const flags = parseFlags(command, rest);
  if (flags.help === true) {
    io.out.line(commandHelp(command));
    return 0;
  }
  return command.run(flags, io);
}

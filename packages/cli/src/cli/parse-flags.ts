import { parseArgs } from 'node:util';
import { type CommandSpec, type FlagValues, HELP_FLAG } from './command.js';
import { CliUsageError } from './errors.js';
import { nearest } from './nearest.js';

/** Parses `argv` (after the command name) against the command's flags; throws {@link CliUsageError}. */
export function parseFlags(command: CommandSpec, argv: readonly string[]): FlagValues {
  const flags = { ...command.flags, help: HELP_FLAG };
  const names = Object.keys(flags);
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, spec]) => [
      name,
      name === 'help' ? { type: spec.type, short: 'h' } : { type: spec.type },
    ]),
  );
  const { tokens } = parseArgs({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === 'positional') {
      throw new CliUsageError(
        `parley ${command.name}: unexpected argument "${token.value}"; see \`parley ${command.name} --help\`.`,
      );
    }
    if (token.kind !== 'option') continue;
    if (token.name === 'h') continue;
    if (!(token.name in flags)) {
      throw new CliUsageError(
        `parley ${command.name}: unknown flag ${token.rawName}; did you mean --${nearest(token.name, names)}?`,
      );
    }
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options,
    }));
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]?.replace(/\.$/, '');
    throw new CliUsageError(`parley ${command.name}: ${message}; see \`parley ${command.name} --help\`.`);
  }
  for (const [name, spec] of Object.entries(command.flags)) {
    const value = values[name];
    if (spec.choices && typeof value === 'string' && !spec.choices.includes(value)) {
      throw new CliUsageError(
        `parley ${command.name}: --${name} ${value} is not one of ${spec.choices.join(', ')}; did you mean --${name} ${nearest(value, spec.choices)}?`,
      );
    }
  }
  return values;
}

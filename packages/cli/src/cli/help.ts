import type { CommandSpec } from './command.js';

/** The general help: what parley is and its commands. */
export function generalHelp(commands: readonly CommandSpec[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    'Usage: parley <command> [flags]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    `  ${'help'.padEnd(width)}Show the help of a command: parley help <command>`,
    '',
    'Flags: --version prints the version; <command> --help shows a command’s help.',
  ].join('\n');
}

/** The help of one command: its usage lines, flags and notes. */
export function commandHelp(command: CommandSpec): string {
  const flags = Object.entries(command.flags).map(([name, spec]) => {
    const value = spec.choices ? ` ${spec.choices.join('|')}` : spec.value ? ` ${spec.value}` : '';
    return [`--${name}${value}`, spec.description] as const;
  });
  flags.push(['--help', 'Show this help']);
  const width = Math.max(...flags.map(([left]) => left.length)) + 2;
  return [
    ...command.usage.map((usage, i) => `${i === 0 ? 'Usage:' : '      '} parley ${usage}`),
    '',
    command.summary,
    '',
    'Flags:',
    ...flags.map(([left, description]) => `  ${left.padEnd(width)}${description}`),
    ...(command.notes?.length ? ['', ...command.notes] : []),
  ].join('\n');
}

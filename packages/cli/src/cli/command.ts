import type { Output } from '../output.js';

/** One flag of a command. */
export interface FlagSpec {
  type: 'string' | 'boolean';
  /** What the help shows as the value, e.g. `FILE`. */
  value?: string;
  description: string;
  /** The only values a string flag accepts. */
  choices?: readonly string[];
}

/** The parsed flags of a command, by name. */
export type FlagValues = Readonly<Record<string, string | boolean | undefined>>;

/** What a command reads and writes. */
export interface CliIO {
  out: Output;
  err: Output;
  stdin: NodeJS.ReadableStream;
  env: Readonly<Record<string, string | undefined>>;
}

/** A `parley` command: its help and what it runs. */
export interface CommandSpec {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Usage lines, without the leading `parley `. */
  usage: readonly string[];
  flags: Readonly<Record<string, FlagSpec>>;
  /** More lines of help after the flags. */
  notes?: readonly string[];
  /** Runs the command; resolves with the exit code. */
  run(flags: FlagValues, io: CliIO): Promise<number>;
}

/** The flag every command has. */
export const HELP_FLAG: FlagSpec = { type: 'boolean', description: 'Show this help' };

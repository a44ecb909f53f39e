import { ParleyError } from '@parley/core';
import { brand } from '@parley/core/internal';

/** The command line is wrong (unknown command or flag, missing value); the message says what to type instead. */
export class CliUsageError extends ParleyError {
  static {
    brand(CliUsageError, 'cli.CliUsageError');
  }

  constructor(message: string) {
    super('cli_usage', message);
  }
}

/** A provider was chosen whose environment variables are not set; the message names the missing ones. */
export class MissingEnvironmentError extends ParleyError {
  static {
    brand(MissingEnvironmentError, 'cli.MissingEnvironmentError');
  }

  readonly missing: readonly string[];

  constructor(provider: string, needed: readonly string[], missing: readonly string[]) {
    super(
      'missing_environment',
      `--provider ${provider} needs ${needed.join(', ')} in the environment; not set: ${missing.join(', ')}. ` +
        'Set them, or leave out --provider to run offline.',
    );
    this.missing = missing;
  }
}

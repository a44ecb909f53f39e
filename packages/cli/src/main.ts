import { parseArgs } from 'node:util';
import { runSupportDemo } from './demo/run-demo.js';
import type { Output } from './output.js';
import { runVoiceDemo } from './voice-demo/run-voice-demo.js';

const USAGE = `Usage: parley <command>

Commands:
  demo        Run a scripted customer-support conversation on the mock model (no API key, no network)
  voice-demo  Run a scripted realtime voice call on the embedded OpenAI Realtime simulator (no API key, no network)
  help        Show this help`;

/** Runs the `parley` command with `argv` (without node and script); resolves with the exit code. */
export async function main(argv: string[], output: Output, errorOutput: Output = output): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    errorOutput.line(`parley: ${(error as Error).message}`);
    errorOutput.line(USAGE);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || command === undefined || command === 'help') {
    output.line(USAGE);
    return command === undefined && !parsed.values.help ? 2 : 0;
  }
  if (command === 'demo' && rest.length === 0) {
    await runSupportDemo(output);
    return 0;
  }
  if (command === 'voice-demo' && rest.length === 0) {
    await runVoiceDemo(output);
    return 0;
  }
  errorOutput.line(`parley: unknown command "${[command, ...rest].join(' ')}"`);
  errorOutput.line(USAGE);
  return 2;
}

import type { RealtimeCapabilities, RealtimeCapability, RealtimeSessionConfig } from '@parley/core';

/** Why `config` needs a capability the provider lacks, or `undefined`. */
export function checkConfig(
  config: RealtimeSessionConfig,
  capabilities: RealtimeCapabilities,
  isUpdate: boolean,
): string | undefined {
  const off = (capability: RealtimeCapability, field: string) =>
    `This mock provider was created with ${capability}: false, so it does not accept ${field}.`;
  if (isUpdate && config.instructions !== undefined && !capabilities.mutableInstructions) {
    return off('mutableInstructions', 'instructions in updateSession');
  }
  if (
    isUpdate &&
    (config.tools !== undefined || config.toolChoice !== undefined) &&
    !capabilities.mutableTools
  ) {
    return off('mutableTools', 'tools in updateSession');
  }
  if (config.turnDetection && !capabilities.turnDetection) return off('turnDetection', 'turnDetection');
  if (config.inputTranscription && !capabilities.userTranscription) {
    return off('userTranscription', 'inputTranscription');
  }
  if (config.outputModalities?.includes('audio') && !capabilities.audioOutput) {
    return off('audioOutput', "outputModalities ['audio']");
  }
  return undefined;
}

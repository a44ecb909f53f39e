import type { RealtimeCapabilities, RealtimeCapability, RealtimeSessionConfig } from '@parley/core';

/** The message of a `capability_not_supported` refusal: the mock was created without `capability`. */
export function capabilityOff(capability: RealtimeCapability, what: string): string {
  return `This mock provider was created with ${capability}: false, so it does not accept ${what}.`;
}

/** Why `config` needs a capability the provider lacks, or `undefined`. */
export function checkConfig(
  config: RealtimeSessionConfig,
  capabilities: RealtimeCapabilities,
  isUpdate: boolean,
): string | undefined {
  if (isUpdate && config.instructions !== undefined && !capabilities.mutableInstructions) {
    return capabilityOff('mutableInstructions', 'instructions in updateSession');
  }
  if (
    isUpdate &&
    (config.tools !== undefined || config.toolChoice !== undefined) &&
    !capabilities.mutableTools
  ) {
    return capabilityOff('mutableTools', 'tools in updateSession');
  }
  if (config.turnDetection && !capabilities.turnDetection)
    return capabilityOff('turnDetection', 'turnDetection');
  if (config.inputTranscription && !capabilities.userTranscription) {
    return capabilityOff('userTranscription', 'inputTranscription');
  }
  if (config.hostedTools?.some((tool) => !capabilities.hostedTools?.includes(tool.kind))) {
    return "This mock provider runs no hosted tools of that kind (create it with capabilities: { hostedTools: ['mcp'] }).";
  }
  if (config.outputModalities?.includes('audio') && !capabilities.audioOutput) {
    return capabilityOff('audioOutput', "outputModalities ['audio']");
  }
  return undefined;
}

import type { Agent } from '../../agent.js';
import type { RunContext } from '../../context.js';
import type { ToolChoice } from '../../model.js';
import type { RealtimeCapabilities } from '../capabilities.js';
import type { RealtimeSessionConfig, RealtimeToolDefinition } from '../seam.js';
import { CapabilityNotSupportedError } from './errors.js';
import type { RealtimeSessionSettings } from './options.js';

/** What an agent contributes to the provider's session configuration. */
export interface AgentSessionConfig {
  instructions: string;
  tools: RealtimeToolDefinition[];
  toolChoice: ToolChoice;
}

/** A fallback the session chose because of a capability. */
export interface ConfigWarning {
  code: string;
  message: string;
}

/** Resolves the agent's instructions (which may be a function and may throw) and its tools and handoffs. */
export async function agentSessionConfig<TContext>(
  agent: Agent<TContext>,
  runContext: RunContext<TContext>,
): Promise<AgentSessionConfig> {
  const instructions = (await agent.getInstructions(runContext)) ?? '';
  const tools = agent.toolDefinitions().map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
  }));
  return { instructions, tools, toolChoice: agent.modelSettings.toolChoice ?? 'auto' };
}

/** The configuration sent with `connect()`: the agent's part plus settings the provider can honour. */
export function initialSessionConfig(
  agentConfig: AgentSessionConfig,
  settings: RealtimeSessionSettings,
  capabilities: RealtimeCapabilities,
  provider: string,
): { config: RealtimeSessionConfig; warnings: ConfigWarning[] } {
  const warnings: ConfigWarning[] = [];
  let outputModalities = settings.outputModalities ?? (capabilities.audioOutput ? ['audio'] : ['text']);
  if (outputModalities.includes('audio') && !capabilities.audioOutput) {
    warnings.push({
      code: 'capability_fallback',
      message: `Provider "${provider}" does not declare audioOutput: the session asks for text output instead of audio.`,
    });
    outputModalities = ['text'];
  }
  const config: RealtimeSessionConfig = { ...agentConfig, outputModalities };
  if (settings.voice !== undefined) config.voice = settings.voice;
  if (settings.providerData !== undefined) config.providerData = settings.providerData;
  if (settings.turnDetection !== undefined) {
    if (settings.turnDetection !== null && !capabilities.turnDetection) {
      warnings.push({
        code: 'capability_fallback',
        message: `Provider "${provider}" does not declare turnDetection: config.turnDetection is ignored; commit user audio with commitAudio().`,
      });
    } else {
      config.turnDetection = settings.turnDetection;
    }
  }
  if (settings.inputTranscription !== undefined) {
    if (settings.inputTranscription !== null && !capabilities.userTranscription) {
      warnings.push({
        code: 'capability_fallback',
        message: `Provider "${provider}" does not declare userTranscription: config.inputTranscription is ignored; user audio will have no transcript.`,
      });
    } else {
      config.inputTranscription = settings.inputTranscription;
    }
  }
  return { config, warnings };
}

/**
 * The `updateSession` a change of agent sends: instructions where `mutableInstructions`, tools and tool
 * choice where `mutableTools`. Throws {@link CapabilityNotSupportedError} when the new agent needs a
 * change the provider cannot make.
 */
export function agentSwitchConfig(
  current: AgentSessionConfig,
  next: AgentSessionConfig,
  capabilities: RealtimeCapabilities,
  provider: string,
): RealtimeSessionConfig {
  const update: RealtimeSessionConfig = {};
  if (capabilities.mutableInstructions) update.instructions = next.instructions;
  else if (next.instructions !== current.instructions) {
    throw new CapabilityNotSupportedError(
      'mutableInstructions',
      provider,
      'switch to an agent with other instructions',
    );
  }
  const toolsChanged =
    JSON.stringify(next.tools) !== JSON.stringify(current.tools) ||
    JSON.stringify(next.toolChoice) !== JSON.stringify(current.toolChoice);
  if (capabilities.mutableTools) {
    update.tools = next.tools;
    update.toolChoice = next.toolChoice;
  } else if (toolsChanged) {
    throw new CapabilityNotSupportedError('mutableTools', provider, 'switch to an agent with other tools');
  }
  return update;
}

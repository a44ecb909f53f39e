import type { Agent } from '../../../agent.js';
import type { RunContext } from '../../../context.js';
import type { ToolChoice } from '../../../model.js';
import { loadToolSources } from '../../../tool-source.js';
import type {
  RealtimeCapabilities,
  RealtimeHostedTool,
  RealtimeSessionConfig,
  RealtimeToolDefinition,
} from '../../seam.js';
import {
  type CapabilityWarning,
  inputTranscriptionStrategy,
  outputModalitiesStrategy,
  turnDetectionStrategy,
} from '../capability-strategies.js';
import type { RealtimeSessionSettings } from '../options.js';
import { realtimeHostedTools } from './realtime-hosted-tools.js';

/** What an agent contributes to the provider's session configuration. */
export interface AgentSessionConfig {
  instructions: string;
  tools: RealtimeToolDefinition[];
  /** The tools the provider runs itself (empty for most agents). */
  hostedTools: RealtimeHostedTool[];
  toolChoice: ToolChoice;
}

/** A fallback the session chose because of a capability. */
export type ConfigWarning = CapabilityWarning;

/** Resolves the agent's instructions (which may be a function and may throw) and its tools and handoffs. */
export async function agentSessionConfig<TContext>(
  agent: Agent<TContext>,
  runContext: RunContext<TContext>,
  signal?: AbortSignal,
): Promise<AgentSessionConfig> {
  const loading = loadToolSources(agent, runContext, signal);
  if (loading) await loading;
  const instructions = (await agent.getInstructions(runContext)) ?? '';
  const tools = agent.toolDefinitions().map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
  }));
  return {
    instructions,
    tools,
    hostedTools: realtimeHostedTools(agent),
    toolChoice: agent.modelSettings.toolChoice ?? 'auto',
  };
}

/** The configuration sent with `connect()`: the agent's part plus settings the provider can honour. */
export function initialSessionConfig(
  agentConfig: AgentSessionConfig,
  settings: RealtimeSessionSettings,
  capabilities: RealtimeCapabilities,
  provider: string,
): { config: RealtimeSessionConfig; warnings: ConfigWarning[] } {
  const warnings: ConfigWarning[] = [];
  const output = outputModalitiesStrategy(settings.outputModalities, capabilities, provider);
  if (output.warning) warnings.push(output.warning);
  // A literal, not a spread of agentConfig: a spread's copy gets a hidden class of its own in every session.
  const config: RealtimeSessionConfig = {
    instructions: agentConfig.instructions,
    tools: agentConfig.tools,
    toolChoice: agentConfig.toolChoice,
    outputModalities: output.outputModalities,
  };
  if (agentConfig.hostedTools.length > 0) config.hostedTools = agentConfig.hostedTools;
  if (settings.voice !== undefined) config.voice = settings.voice;
  if (settings.providerData !== undefined) config.providerData = settings.providerData;
  if (settings.inputAudioFormat !== undefined) config.inputAudioFormat = settings.inputAudioFormat;
  if (settings.outputAudioFormat !== undefined) config.outputAudioFormat = settings.outputAudioFormat;
  const turnDetection = turnDetectionStrategy.apply(settings.turnDetection, capabilities, provider);
  if (turnDetection.warning) warnings.push(turnDetection.warning);
  else if (turnDetection.send) config.turnDetection = settings.turnDetection;
  const transcription = inputTranscriptionStrategy(settings.inputTranscription, capabilities, provider);
  if (transcription.warning) warnings.push(transcription.warning);
  else if (transcription.send) config.inputTranscription = settings.inputTranscription;
  return { config, warnings };
}

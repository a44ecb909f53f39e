import type { z } from 'zod';
import type { AgentOptions } from './agent.js';
import type { HandoffOptions } from './handoff.js';
import type { ModelSettings } from './model.js';
import { type OptionKeyList, optionKeys } from './option-keys.js';
import type { ToolOptions } from './tool.js';

/** The valid keys of `new Agent({ … })`. */
export const AGENT_OPTIONS = optionKeys<AgentOptions<unknown, z.ZodType | undefined>>('AgentOptions', {
  name: true,
  instructions: true,
  handoffDescription: true,
  tools: true,
  toolSources: true,
  hostedTools: true,
  handoffs: true,
  inputGuardrails: true,
  outputGuardrails: true,
  outputType: true,
  model: true,
  modelSettings: true,
  toolUseBehavior: true,
});

/** The valid keys of `modelSettings` (on an agent, a Runner or a run). */
export const MODEL_SETTINGS_OPTIONS = optionKeys<ModelSettings>('ModelSettings', {
  temperature: true,
  topP: true,
  maxOutputTokens: true,
  toolChoice: true,
  parallelToolCalls: true,
  providerData: true,
});

/** The keys of `tool({ … })`, listed once (agent tools take most of them too). */
export const TOOL_OPTION_LIST = {
  name: true,
  description: true,
  parameters: true,
  execute: true,
  needsApproval: true,
  timeoutMs: true,
  timeoutBehavior: true,
  errorFunction: true,
  inputGuardrails: true,
  outputGuardrails: true,
} as const satisfies OptionKeyList<ToolOptions<unknown, z.ZodObject>>;

/** The valid keys of `tool({ … })`. */
export const TOOL_OPTIONS = optionKeys<ToolOptions<unknown, z.ZodObject>>('ToolOptions', TOOL_OPTION_LIST);

/** The valid keys of `handoff(agent, { … })`. */
export const HANDOFF_OPTIONS = optionKeys<HandoffOptions<unknown>>('HandoffOptions', {
  onHandoff: true,
  inputFilter: true,
  toolName: true,
  toolDescription: true,
});

/** Checks an options object (and its `modelSettings`, when present) for unknown keys. */
export function checkModelSettings(settings: unknown): void {
  if (typeof settings === 'object' && settings !== null)
    MODEL_SETTINGS_OPTIONS.check(settings, 'modelSettings');
}

import type { ToolChoice } from '../../model.js';
import {
  declaresCapability,
  type RealtimeCapabilities,
  type RealtimeConnection,
  type RealtimeHostedTool,
  type RealtimeSessionConfig,
  type RealtimeToolDefinition,
} from '../seam.js';
import { CapabilityNotSupportedError } from './errors.js';
import type { RealtimeSessionSettings } from './options.js';

/**
 * Where each capability flag becomes a strategy: every flag of {@link RealtimeCapabilities} is read here and
 * nowhere else in the session (docs/capabilities.md names the function per flag). The units that act on a
 * strategy (the connect configuration, the agent switch, interruptions, responses, the response coordinator,
 * recycling) ask these functions.
 */

/** A fallback the session chose because of a capability. */
export interface CapabilityWarning {
  code: string;
  message: string;
}

/** `audioOutput`: the output modalities asked for at connect (text where the provider has no audio). */
export function outputModalitiesStrategy(
  requested: RealtimeSessionSettings['outputModalities'],
  capabilities: RealtimeCapabilities,
  provider: string,
): { outputModalities: ('text' | 'audio')[]; warning?: CapabilityWarning } {
  const outputModalities = requested ?? (capabilities.audioOutput ? ['audio'] : ['text']);
  if (!outputModalities.includes('audio') || capabilities.audioOutput) return { outputModalities };
  return {
    outputModalities: ['text'],
    warning: {
      code: 'capability_fallback',
      message: `Provider "${provider}" does not declare audioOutput: the session asks for text output instead of audio.`,
    },
  };
}

/**
 * `turnDetection`: whether the app's turn-detection setting is sent (a provider without turn detection gets
 * none, and the app commits audio itself), and whether it is active for the session.
 */
export const turnDetectionStrategy = {
  apply(
    setting: RealtimeSessionSettings['turnDetection'],
    capabilities: RealtimeCapabilities,
    provider: string,
  ): { send: boolean; warning?: CapabilityWarning } {
    if (setting === undefined) return { send: false };
    if (setting === null || capabilities.turnDetection) return { send: true };
    return {
      send: false,
      warning: {
        code: 'capability_fallback',
        message: `Provider "${provider}" does not declare turnDetection: config.turnDetection is ignored; commit user audio with commitAudio().`,
      },
    };
  },
  /** The provider detects the user's turns: `commitAudio()` leaves the response to it. */
  active(setting: RealtimeSessionSettings['turnDetection'], capabilities: RealtimeCapabilities): boolean {
    return capabilities.turnDetection && setting !== null;
  },
  /** The provider cancels its active response by itself when the user starts speaking. */
  providerCancelsOnSpeech(
    setting: RealtimeSessionSettings['turnDetection'],
    capabilities: RealtimeCapabilities,
  ): boolean {
    return turnDetectionStrategy.active(setting, capabilities) && setting?.interruptResponse !== false;
  },
};

/** `userTranscription`: whether the app's input-transcription setting is sent. */
export function inputTranscriptionStrategy(
  setting: RealtimeSessionSettings['inputTranscription'],
  capabilities: RealtimeCapabilities,
  provider: string,
): { send: boolean; warning?: CapabilityWarning } {
  if (setting === undefined) return { send: false };
  if (setting === null || capabilities.userTranscription) return { send: true };
  return {
    send: false,
    warning: {
      code: 'capability_fallback',
      message: `Provider "${provider}" does not declare userTranscription: config.inputTranscription is ignored; user audio will have no transcript.`,
    },
  };
}

/** What an agent contributes to the provider's session configuration. */
interface AgentPart {
  instructions: string;
  tools: RealtimeToolDefinition[];
  hostedTools: RealtimeHostedTool[];
  toolChoice: ToolChoice;
}

/**
 * `mutableInstructions` and `mutableTools`: what an agent switch may send; throws
 * {@link CapabilityNotSupportedError} when the new agent needs a change the provider cannot make.
 */
export function agentSwitchStrategy(
  current: AgentPart,
  next: AgentPart,
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
  const hosted = current.hostedTools.length > 0 || next.hostedTools.length > 0;
  const toolsChanged =
    JSON.stringify(next.tools) !== JSON.stringify(current.tools) ||
    JSON.stringify(next.toolChoice) !== JSON.stringify(current.toolChoice) ||
    (hosted && JSON.stringify(next.hostedTools) !== JSON.stringify(current.hostedTools));
  if (capabilities.mutableTools) {
    update.tools = next.tools;
    update.toolChoice = next.toolChoice;
    // Sent with the function tools whenever either agent has some (`[]` removes the previous agent's).
    if (hosted) update.hostedTools = next.hostedTools;
  } else if (toolsChanged) {
    throw new CapabilityNotSupportedError('mutableTools', provider, 'switch to an agent with other tools');
  }
  return update;
}

/** How the provider's copy of an interrupted message is corrected. */
export interface MessageCorrection {
  /** Truncate the message's audio at this position (ms). */
  truncateAtMs?: number;
  /** Delete the message. */
  delete: boolean;
  /** What stays wrong in the provider's context, when the capabilities allow no correction. */
  uncorrected?: 'message_not_truncated' | 'message_not_removed';
}

/**
 * `messageTruncation` and `mutableChatContext`: a `partial` message with audio is truncated at the heard
 * position; a `skipped` one is truncated at 0 (when it has audio) and deleted, as far as the flags allow.
 */
export function messageCorrectionStrategy(
  outcome: 'full' | 'partial' | 'skipped',
  hasAudio: boolean,
  playedMs: number,
  capabilities: RealtimeCapabilities,
): MessageCorrection {
  const { messageTruncation, mutableChatContext } = capabilities;
  if (outcome === 'partial' && hasAudio) {
    return messageTruncation
      ? { truncateAtMs: playedMs, delete: false }
      : { delete: false, uncorrected: 'message_not_truncated' };
  }
  if (outcome !== 'skipped') return { delete: false };
  const truncated = messageTruncation && hasAudio;
  return {
    ...(truncated && { truncateAtMs: 0 }),
    delete: mutableChatContext,
    ...(!truncated && !mutableChatContext && { uncorrected: 'message_not_removed' as const }),
  };
}

/** `ephemeralResponse`: an ephemeral response goes out of band, or is an ordinary response with a warning. */
export function ephemeralResponseStrategy(
  capabilities: RealtimeCapabilities,
  provider: string,
): { outOfBand: true } | { outOfBand: false; warning: CapabilityWarning } {
  if (capabilities.ephemeralResponse) return { outOfBand: true };
  return {
    outOfBand: false,
    warning: {
      code: 'ephemeral_response_unsupported',
      message: `Provider "${provider}" does not declare ephemeralResponse: this response is an ordinary one and enters the conversation (history and the model's context).`,
    },
  };
}

/**
 * `autoToolResponseGeneration`: who starts the response after tool outputs. `'provider'`: the session never
 * requests one, and a tool output means the provider is about to answer (recycling waits for it).
 */
export function toolFollowUpStrategy(capabilities: RealtimeCapabilities): 'session' | 'provider' {
  return capabilities.autoToolResponseGeneration ? 'provider' : 'session';
}

/**
 * `responseRequests`: a user message (`sendMessage`) or a requested response (`generateResponse`, `commitAudio({ respond:
 * true })`) needs a provider that answers requests; where the model takes its turns by itself they are refused.
 */
export function requireResponseRequests(
  capabilities: RealtimeCapabilities,
  provider: string,
  action: string,
): void {
  if (!capabilities.responseRequests) {
    throw new CapabilityNotSupportedError('responseRequests', provider, action);
  }
}

/**
 * `turnDetection`, `responseRequests` and `commitStartsResponse`: whether committing user audio asks for a response by
 * default (push-to-talk); not where the provider detects turns, takes them by itself, or answers a commit by itself.
 */
export function commitRespondsByDefault(
  setting: RealtimeSessionSettings['turnDetection'],
  capabilities: RealtimeCapabilities,
): boolean {
  return (
    capabilities.responseRequests &&
    !declaresCapability(capabilities, 'commitStartsResponse') &&
    !turnDetectionStrategy.active(setting, capabilities)
  );
}

/**
 * `commitStartsResponse`: what a commit with an explicit `respond` does. Where the provider answers every commit by
 * itself, the session asks for nothing (`respond: true` is already what happens; `respond: false` cannot stop it,
 * and says so).
 */
export function commitStrategy(
  respond: boolean | undefined,
  setting: RealtimeSessionSettings['turnDetection'],
  capabilities: RealtimeCapabilities,
  provider: string,
): { request: boolean; refuseWithoutRequests: boolean; warning?: CapabilityWarning } {
  if (!declaresCapability(capabilities, 'commitStartsResponse')) {
    return {
      request: respond ?? commitRespondsByDefault(setting, capabilities),
      refuseWithoutRequests: respond === true,
    };
  }
  if (respond !== false) return { request: false, refuseWithoutRequests: false };
  return {
    request: false,
    refuseWithoutRequests: false,
    warning: {
      code: 'commit_starts_response',
      message: `Provider "${provider}" answers every commit of user audio by itself (commitStartsResponse): commitAudio({ respond: false }) cannot keep it from answering.`,
    },
  };
}

/**
 * `responseInstructions`: per-response instructions apply to that response alone, or (without it) they stay in the
 * model's context after it, where the history does not show them: the session still sends them and warns.
 */
export function responseInstructionsStrategy(
  capabilities: RealtimeCapabilities,
  provider: string,
  clientRequestId: string,
): CapabilityWarning | undefined {
  if (declaresCapability(capabilities, 'responseInstructions')) return undefined;
  return {
    code: 'response_instructions_persist',
    message: `Provider "${provider}" has no per-response instructions (responseInstructions): the instructions of request ${clientRequestId} were put into the model's context, where they stay for later responses while session.history does not show them.`,
  };
}

/**
 * `contentDuringResponse`: whether a user message sent while a response streams goes out at once, or (where new
 * content would interrupt the model) is held, with its response request, until that response is done.
 */
export function contentDuringResponseStrategy(capabilities: RealtimeCapabilities): 'send' | 'hold' {
  return declaresCapability(capabilities, 'contentDuringResponse') ? 'send' : 'hold';
}

/** `contextAppends`: `appendContext()` goes out only to a provider that takes appends. */
export function requireContextAppends(capabilities: RealtimeCapabilities, provider: string): void {
  if (!capabilities.contextAppends) {
    throw new CapabilityNotSupportedError('contextAppends', provider, 'append context');
  }
}

/** `delegation` (with `contextAppends`): a `delegate` agent can answer the provider's delegations. */
export function delegationStrategy(capabilities: RealtimeCapabilities): { delegateAllowed: boolean } {
  return { delegateAllowed: capabilities.delegation === true && capabilities.contextAppends === true };
}

/**
 * `mutableChatContext` / `contextAppends` on reconnect: the history is replayed as items, or — for an append-only
 * provider that takes context appends — as one silent thought.
 */
export function historyReplayStrategy(capabilities: RealtimeCapabilities): 'items' | 'context' {
  return !capabilities.mutableChatContext && capabilities.contextAppends === true ? 'context' : 'items';
}

/**
 * `contentAcknowledgements`: who puts what the session sent (user messages, tool outputs) into its history. `provider`:
 * its acknowledgement (`item_added`) does, and until then it waits (a cut carries it over); `session`: the session
 * records it as it sends it, and a cut replays what the new connection cannot be shown to hold.
 */
export function sentContentStrategy(capabilities: RealtimeCapabilities): 'provider' | 'session' {
  return declaresCapability(capabilities, 'contentAcknowledgements') ? 'provider' : 'session';
}

/** `sessionResumption`: reconnects and recycles resume the conversation with the latest resume token. */
export function resumptionStrategy(capabilities: RealtimeCapabilities): boolean {
  return declaresCapability(capabilities, 'sessionResumption');
}

/**
 * `servicePlayback` (a connection's own declaration first, then the model's): the service plays the audio and knows
 * what was heard. An interruption is then a cancel plus `clearOutputAudio`, the session corrects nothing on the
 * provider (the service truncates), and the heard positions are the service's (`item_truncated` with `heardMs`),
 * not the app's playback reports.
 */
export function servicePlaybackStrategy(
  capabilities: RealtimeCapabilities,
  connection: RealtimeConnection | undefined,
): boolean {
  return connection?.servicePlayback ?? declaresCapability(capabilities, 'servicePlayback');
}

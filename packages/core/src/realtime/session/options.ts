import { Agent } from '../../agent.js';
import { type Clock, resolveClockOption } from '../../clock.js';
import {
  DEFAULT_GUARDRAIL_DEBOUNCE_CHARS,
  DEFAULT_REPLY_TIMEOUT_MS,
  DEFAULT_STALE_RESPONSE_MS,
} from '../../constants.js';
import { UserError } from '../../errors.js';
import type { OutputGuardrail } from '../../guardrails.js';
import type { Session } from '../../memory/session.js';
import { optionKeys } from '../../option-keys.js';
import type { ToolErrorFormatter } from '../../runner/run-config.js';
import { type AnyRealtimeModel, currentRealtimeModel } from '../model-version.js';
import { type PlaybackTracker, RealtimePlaybackTracker } from '../playback/playback-tracker.js';
import {
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeModel,
  type RealtimeSessionConfig,
  type TurnDetectionConfig,
} from '../seam.js';
import { REALTIME_SPECIFICATION_VERSION_V1 } from '../spec/v1/index.js';
import { checkRealtimeHostedTools } from './agents/realtime-hosted-tools.js';
import { delegationStrategy } from './capability-strategies.js';
import {
  type RealtimeReconnectOptions,
  type ResolvedReconnectOptions,
  resolveReconnectOptions,
} from './connection/reconnect-options.js';

/** Session settings that do not come from the agent (the agent supplies instructions and tools). */
export type RealtimeSessionSettings = Pick<
  RealtimeSessionConfig,
  | 'voice'
  | 'turnDetection'
  | 'inputTranscription'
  | 'outputModalities'
  | 'providerData'
  | 'inputAudioFormat'
  | 'outputAudioFormat'
>;

/** Options of {@link RealtimeSession}. */
export interface RealtimeSessionOptions<TContext = unknown> {
  /** The realtime provider (a model of the current specification, or of version 1: the session translates). */
  model: AnyRealtimeModel;
  /** The app's context object, passed to tools, guardrails and instructions functions. */
  context?: TContext;
  /** Run tool calls concurrently (`true`, the default) or one at a time, in arrival order (`false`). */
  asyncToolCalls?: boolean;
  /** Output guardrails run on every response's transcript, in addition to the agent's own. */
  outputGuardrails?: OutputGuardrail<TContext>[];
  /** Run output guardrails each time a response's transcript grows by this many characters. Default 100. */
  guardrailDebounceChars?: number;
  /** Timeout for tools that declare no `timeoutMs` of their own. Default: none. */
  toolTimeoutMs?: number;
  /**
   * The text the model sees for a failed tool call or a call the app rejected without a message, as in the Runner
   * (see {@link ToolErrorFormatter}). Default: a generic text; the error itself goes to `tool_done` and the logger,
   * never to the model. A tool's own `errorFunction` and a rejection's `message` still win.
   */
  toolErrorFormatter?: ToolErrorFormatter<TContext>;
  /**
   * How long a response request (a `generateResponse()`, a user message's response, a tool follow-up) may wait for the
   * provider to start its response, counted from when it was made, time queued behind an active response
   * included. Default 15 000.
   */
  responseTimeoutMs?: number;
  /**
   * A started response that sends no event for this long (checked in windows of this length, so it is dropped
   * within twice that) is dropped: cancelled by its id, ended as `failed` with reason `stale`, and reported as a
   * `response_stale` error; what the provider still sends for it is ignored. Default 30 000.
   */
  staleResponseMs?: number;
  /** The clock for timeouts and playback positions; tests inject a manual one. Default: the system clock. */
  clock?: Clock;
  /**
   * What the listener heard of each message, asked when the user interrupts. Default: a
   * `RealtimePlaybackTracker` on `clock` (audio plays in real time as it arrives). Apps that play audio
   * themselves pass a `ReportedPlaybackTracker` and report through `session.playback`, or their own.
   */
  playbackTracker?: PlaybackTracker;
  /** Voice, turn detection, input transcription, output modalities and provider-specific `providerData`. */
  config?: RealtimeSessionSettings;
  /**
   * Reconnect by itself after an unexpected close or the provider's session limit, and recycle the
   * connection between turns before that limit. Default `true`; `false` leaves reconnecting to the app
   * (`connect()` after `disconnected`); an object tunes it (see docs/realtime.md).
   */
  reconnect?: boolean | RealtimeReconnectOptions;
  /**
   * A text agent that answers the voice model's delegations (providers with `delegation`): it runs with the Runner
   * on the conversation so far, and its final output goes back to the voice model. See docs/realtime.md.
   */
  delegate?: Agent<TContext>;
  /** How the delegate's answer reaches the voice: `commentary` (spoken, the default) or `thought` (silent). */
  delegateDelivery?: 'commentary' | 'thought';
  /**
   * Also emit every event the provider sends, as it sent it, in a `raw_event` session event (before the
   * events the session makes of it). Off by default: it costs a copy of each event. Default `false`.
   */
  rawEvents?: boolean;
  /**
   * Conversation memory (a `Session`, e.g. `storeSession(store, id)` from `@parley/memory`): every turn is written
   * as the listener heard it, as it happens, and the first `connect()` starts the provider's conversation from
   * what it holds. A text run given the same session shares the conversation. See docs/memory.md.
   */
  memory?: Session;
}

/** {@link RealtimeSessionOptions} with defaults applied. */
export interface ResolvedSessionOptions<TContext> {
  model: RealtimeModel;
  context: TContext;
  asyncToolCalls: boolean;
  outputGuardrails: OutputGuardrail<TContext>[];
  guardrailDebounceChars: number;
  toolTimeoutMs: number | undefined;
  toolErrorFormatter: ToolErrorFormatter<TContext> | undefined;
  responseTimeoutMs: number;
  staleResponseMs: number;
  clock: Clock;
  playbackTracker: PlaybackTracker;
  config: RealtimeSessionSettings;
  reconnect: ResolvedReconnectOptions;
  delegate: Agent<TContext> | undefined;
  delegateDelivery: 'commentary' | 'thought';
  rawEvents: boolean;
  memory: Session | undefined;
}

const OWNER = 'RealtimeSessionOptions';
const SESSION_OPTIONS = optionKeys<RealtimeSessionOptions>(OWNER, {
  model: true,
  context: true,
  asyncToolCalls: true,
  outputGuardrails: true,
  guardrailDebounceChars: true,
  toolTimeoutMs: true,
  toolErrorFormatter: true,
  responseTimeoutMs: true,
  staleResponseMs: true,
  clock: true,
  playbackTracker: true,
  config: true,
  reconnect: true,
  delegate: true,
  delegateDelivery: true,
  rawEvents: true,
  memory: true,
});
const CONFIG_OPTIONS = optionKeys<RealtimeSessionSettings>(OWNER, {
  voice: true,
  turnDetection: true,
  inputTranscription: true,
  outputModalities: true,
  providerData: true,
  inputAudioFormat: true,
  outputAudioFormat: true,
});
const TURN_DETECTION_OPTIONS = optionKeys<TurnDetectionConfig>(OWNER, {
  createResponse: true,
  interruptResponse: true,
  silenceDurationMs: true,
  providerOptions: true,
});
const INPUT_TRANSCRIPTION_OPTIONS = optionKeys<NonNullable<RealtimeSessionConfig['inputTranscription']>>(
  OWNER,
  { model: true, language: true },
);

function invalid(message: string): UserError {
  return new UserError(`Invalid RealtimeSession options: ${message}`, { code: 'invalid_session_options' });
}

function positive(name: string, value: unknown, integer: boolean): void {
  if (value === undefined) return;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (integer && !Number.isInteger(value))
  ) {
    throw invalid(`${name} must be a positive ${integer ? 'integer' : 'number'}, got ${String(value)}.`);
  }
}

/** Validates the constructor arguments of a session; throws a `UserError` (`invalid_session_options`). */
export function resolveSessionOptions<TContext>(
  agent: unknown,
  options: RealtimeSessionOptions<TContext> | undefined,
): ResolvedSessionOptions<TContext> {
  if (!(agent instanceof Agent)) {
    throw invalid(
      'the first argument must be an Agent, e.g. new RealtimeSession(new Agent({ name }), { model }).',
    );
  }
  if (!options || typeof options !== 'object') throw invalid('pass an options object with a `model`.');
  SESSION_OPTIONS.check(options);
  const given = options.model as Partial<RealtimeModel> | undefined;
  if (!given || typeof given.connect !== 'function' || typeof given.capabilities !== 'object') {
    throw invalid('`model` must be a RealtimeModel (an object with `connect()` and `capabilities`).');
  }
  const model = currentRealtimeModel(given as AnyRealtimeModel);
  if (model === undefined) {
    throw invalid(
      `model "${String(given.provider)}" implements specification ${String(given.specificationVersion)}, ` +
        `but this @parley/core takes ${REALTIME_SPECIFICATION_VERSION} or ${REALTIME_SPECIFICATION_VERSION_V1}. ` +
        'Upgrade the provider package.',
    );
  }
  checkRealtimeHostedTools(agent, model);
  if (options.asyncToolCalls !== undefined && typeof options.asyncToolCalls !== 'boolean') {
    throw invalid('asyncToolCalls must be true or false.');
  }
  if (options.toolErrorFormatter !== undefined && typeof options.toolErrorFormatter !== 'function') {
    throw invalid(
      'toolErrorFormatter must be a function ({ kind, toolName, error, defaultMessage }) => string | undefined.',
    );
  }
  if (options.rawEvents !== undefined && typeof options.rawEvents !== 'boolean') {
    throw invalid('rawEvents must be true or false.');
  }
  const memory = options.memory as Partial<Session> | undefined;
  if (
    memory !== undefined &&
    (typeof memory !== 'object' ||
      memory === null ||
      (['getItems', 'addItems', 'popItem', 'clearSession'] as const).some(
        (name) => typeof memory[name] !== 'function',
      ))
  ) {
    throw invalid(
      'memory must be a Session (getItems, addItems, popItem, clearSession), e.g. storeSession(store, id).',
    );
  }
  positive('guardrailDebounceChars', options.guardrailDebounceChars, true);
  positive('toolTimeoutMs', options.toolTimeoutMs, false);
  positive('responseTimeoutMs', options.responseTimeoutMs, false);
  positive('staleResponseMs', options.staleResponseMs, false);
  const guardrails = options.outputGuardrails ?? [];
  if (
    !Array.isArray(guardrails) ||
    guardrails.some((g) => !g || typeof g.execute !== 'function' || !g.name)
  ) {
    throw invalid('outputGuardrails must be a list of { name, execute } guardrails.');
  }
  const clock = resolveClockOption(options.clock, invalid);
  const tracker = options.playbackTracker;
  const trackerMethods = ['audioReceived', 'played', 'finished', 'playedMs', 'stopped', 'reset'] as const;
  if (
    tracker !== undefined &&
    (typeof tracker !== 'object' ||
      tracker === null ||
      trackerMethods.some((name) => typeof tracker[name] !== 'function'))
  ) {
    throw invalid(`playbackTracker must implement PlaybackTracker (${trackerMethods.join(', ')}).`);
  }
  const reconnect = resolveReconnectOptions(options.reconnect, invalid);
  const config = options.config ?? {};
  if (typeof config !== 'object' || config === null) throw invalid('config must be an object.');
  CONFIG_OPTIONS.check(config, 'config');
  const { turnDetection, inputTranscription } = config;
  if (typeof turnDetection === 'object' && turnDetection !== null) {
    TURN_DETECTION_OPTIONS.check(turnDetection, 'config.turnDetection');
  }
  if (typeof inputTranscription === 'object' && inputTranscription !== null) {
    INPUT_TRANSCRIPTION_OPTIONS.check(inputTranscription, 'config.inputTranscription');
  }
  if (config.outputModalities !== undefined) {
    const ok =
      Array.isArray(config.outputModalities) &&
      config.outputModalities.length > 0 &&
      config.outputModalities.every((m) => m === 'text' || m === 'audio');
    if (!ok) throw invalid("config.outputModalities must be ['audio'] or ['text'].");
  }
  for (const key of ['inputAudioFormat', 'outputAudioFormat'] as const) {
    const format = config[key];
    if (format !== undefined && format !== 'pcm16' && format !== 'g711_ulaw' && format !== 'g711_alaw') {
      throw invalid(`config.${key} must be 'pcm16', 'g711_ulaw' or 'g711_alaw'.`);
    }
  }

  return {
    model,
    context: options.context as TContext,
    asyncToolCalls: options.asyncToolCalls ?? true,
    outputGuardrails: [...guardrails],
    guardrailDebounceChars: options.guardrailDebounceChars ?? DEFAULT_GUARDRAIL_DEBOUNCE_CHARS,
    toolTimeoutMs: options.toolTimeoutMs,
    toolErrorFormatter: options.toolErrorFormatter,
    responseTimeoutMs: options.responseTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS,
    staleResponseMs: options.staleResponseMs ?? DEFAULT_STALE_RESPONSE_MS,
    clock,
    playbackTracker: tracker ?? new RealtimePlaybackTracker(clock),
    config: { ...config },
    reconnect,
    delegate: checkDelegate(options, model),
    delegateDelivery: options.delegateDelivery ?? 'commentary',
    rawEvents: options.rawEvents ?? false,
    memory: options.memory,
  };
}

function checkDelegate<TContext>(
  options: RealtimeSessionOptions<TContext>,
  model: RealtimeModel,
): Agent<TContext> | undefined {
  const { delegate, delegateDelivery } = options;
  if (delegateDelivery !== undefined && delegateDelivery !== 'commentary' && delegateDelivery !== 'thought') {
    throw invalid("delegateDelivery must be 'commentary' or 'thought'.");
  }
  if (delegate === undefined) return undefined;
  if (!(delegate instanceof Agent))
    throw invalid('delegate must be an Agent (a text agent run by the Runner).');
  if (!delegationStrategy(model.capabilities).delegateAllowed) {
    throw invalid(
      `delegate needs a provider that delegates and takes context appends; "${model.provider}" declares ` +
        'no delegation / contextAppends. Give the voice agent the tools instead.',
    );
  }
  return delegate;
}

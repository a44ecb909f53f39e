import type { Clock } from '@parley/core';
import {
  invalidOption,
  type OptionKeyList,
  optionKeys,
  positiveMs,
  resolveClockOption,
} from '@parley/core/internal';
import type { WebSocketConstructor, WebSocketStyle } from '@parley/transport';
import {
  KEEPALIVE_OPTION_KEYS,
  type KeepaliveOptions,
  type ResolvedKeepalive,
  resolveKeepalive,
} from '@parley/transport';
import {
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_SILENCE_FRAME_MS,
  DEFAULT_TURN_GAP_MS,
} from '../constants.js';
import { type ApiKeySource, resolveApiKeySource } from '../shared/api-key.js';
import { checkWebSocketConstructor, socketURL, upgradeHeaders } from '../shared/option-checks.js';

/** Options of {@link OpenAILiveModel}. */
export interface OpenAILiveModelOptions {
  /** An OpenAI API key. Defaults to the `OPENAI_API_KEY` environment variable. GPT-Live has no ephemeral keys. */
  apiKey?: string;
  /** Called before every connection for a fresh credential (e.g. a Microsoft Entra token). Not with `apiKey`. */
  apiKeyProvider?: () => string | Promise<string>;
  /** How the credential is sent: `Authorization: Bearer` (default) or the `api-key` header (Azure keys). */
  authHeader?: 'bearer' | 'api-key';
  /** The voice model, sent in `session.start` (never in the URL). Default `gpt-live-1`. */
  model?: string;
  /**
   * The primary WebSocket endpoint, without a query string. Default `wss://api.openai.com/v1/live/sessions`; a local
   * simulator: `ws://127.0.0.1:<port>/v1/live/sessions`.
   */
  url?: string;
  /** Extra upgrade headers (e.g. `OpenAI-Organization`). Authorization is set from the key. */
  headers?: Record<string, string>;
  /**
   * Attach to this running session on its sideband (`<url>/{sessionId}/attach`) instead of starting one: a SIP call's
   * (see `answerSipCall`). The service plays the audio on the phone line (`servicePlayback`); no `session.start`, no
   * input audio. Its model and instructions are the ones the call was accepted with.
   */
  sessionId?: string;
  /**
   * Who does delegated work. `'client'` (default): the app or the session's `delegate` agent answers each delegation
   * with context appends. `'responses'`: a hosted Responses model (`backend`) runs with the agent's tools, whose
   * function calls the session executes.
   */
  delegation?: 'client' | 'responses';
  /** The hosted backend of Responses delegation: its model (required there) and its own instructions. */
  backend?: { model: string; instructions?: string };
  /** Delay before the voice model acknowledges a delegation aloud (ms). Default the service's (0). */
  acknowledgementDelayMs?: number;
  /** Startup history replayed into a new session (text only, ≤ 128 messages). */
  input?: { role: 'user' | 'assistant' | 'developer'; text: string }[];
  /** Size of the silence frames sent while the app sends no audio. Default 100 ms. */
  silenceFrameMs?: number;
  /** Output silence that ends a spoken response, and a transcript gap that ends a user turn. Default 800 ms. */
  turnGapMs?: number;
  /** The WebSocket constructor. Default `globalThis.WebSocket` where it exists, else the `ws` package. */
  WebSocket?: WebSocketConstructor;
  /** How `WebSocket` takes headers; detected from the constructor and the runtime when left out. */
  webSocketStyle?: WebSocketStyle;
  /** Time source for the timeouts and the silence frames. Default the system clock. */
  clock?: Clock;
  /** How long `connect()` waits for `session.started`. Default 30 000 ms. */
  connectTimeoutMs?: number;
  /** How long `close()` waits for `session.closed` and the closing handshake. Default 5 000 ms. */
  closeTimeoutMs?: number;
  /**
   * Pings the service while the session is open, as `OpenAIRealtimeModel` does: a ping unanswered within
   * `timeoutMs` ends the connection (a `RealtimeSession` reconnects). Default `{ intervalMs: 30_000, timeoutMs:
   * 10_000 }`; `false` sends none. Only a socket that can ping does (the `ws` package's).
   */
  keepalive?: KeepaliveOptions | false;
}

/** The validated options. */
export interface ResolvedLiveOptions {
  apiKey: ApiKeySource;
  authHeader: 'bearer' | 'api-key';
  model: string;
  /** The URL to open, as a string: a `URL` object would be kept per model. */
  url: string;
  headers: Record<string, string>;
  /** The session to attach to on its sideband, if any. */
  sessionId: string | undefined;
  delegation: 'client' | 'responses';
  backend: { model: string; instructions?: string } | undefined;
  acknowledgementDelayMs: number | undefined;
  input: { role: 'user' | 'assistant' | 'developer'; text: string }[];
  silenceFrameMs: number;
  turnGapMs: number;
  WebSocket: WebSocketConstructor | undefined;
  webSocketStyle: WebSocketStyle | undefined;
  clock: Clock;
  connectTimeoutMs: number;
  closeTimeoutMs: number;
  keepalive: ResolvedKeepalive;
}

/** The option keys of a GPT-Live session that are not about where and as whom (shared with other hosts' forms). */
export const LIVE_SESSION_OPTION_KEYS: OptionKeyList<
  Omit<
    OpenAILiveModelOptions,
    'apiKey' | 'apiKeyProvider' | 'authHeader' | 'model' | 'url' | 'headers' | 'sessionId'
  >
> = {
  delegation: true,
  backend: true,
  acknowledgementDelayMs: true,
  input: true,
  silenceFrameMs: true,
  turnGapMs: true,
  WebSocket: true,
  webSocketStyle: true,
  clock: true,
  connectTimeoutMs: true,
  closeTimeoutMs: true,
  keepalive: true,
};

const OPTIONS = optionKeys<OpenAILiveModelOptions>('OpenAILiveModelOptions', {
  apiKey: true,
  apiKeyProvider: true,
  authHeader: true,
  model: true,
  url: true,
  headers: true,
  sessionId: true,
  ...LIVE_SESSION_OPTION_KEYS,
});
type LiveInputMessage = NonNullable<OpenAILiveModelOptions['input']>[number];
type LiveBackend = NonNullable<OpenAILiveModelOptions['backend']>;
const INPUT_ROLES = new Set(['developer', 'user', 'assistant']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks the keys inside `backend` and each `input` message (the top level is the caller's list), naming `owner`
 * and the nearest key of a typo.
 */
export function checkNestedLiveOptionKeys(
  options: { backend?: unknown; input?: unknown; keepalive?: unknown },
  owner: string,
): void {
  if (isObject(options.keepalive)) {
    optionKeys<KeepaliveOptions>(owner, KEEPALIVE_OPTION_KEYS).check(options.keepalive, 'keepalive');
  }
  if (isObject(options.backend)) {
    optionKeys<LiveBackend>(owner, { model: true, instructions: true }).check(options.backend, 'backend');
  }
  if (Array.isArray(options.input)) {
    const keys = optionKeys<LiveInputMessage>(owner, { role: true, text: true });
    options.input.forEach((message, index) => {
      if (isObject(message)) keys.check(message, `input[${index}]`);
    });
  }
}

function checkInput(input: unknown): LiveInputMessage[] {
  if (!Array.isArray(input) || input.length > 128) {
    throw invalidOption('input must be an array of at most 128 messages.');
  }
  input.forEach((message: unknown, index) => {
    if (!isObject(message)) throw invalidOption(`input[${index}] must be a message: { role, text }.`);
    if (!INPUT_ROLES.has(message.role as string)) {
      throw invalidOption(
        `input[${index}].role must be 'developer', 'user' or 'assistant' (GPT-Live has no 'system').`,
      );
    }
    if (typeof message.text !== 'string') throw invalidOption(`input[${index}].text must be a string.`);
  });
  return input;
}

const DEFAULT_URL = 'wss://api.openai.com/v1/live/sessions';
const RESERVED_HEADERS = new Set([
  'authorization',
  'api-key',
  'host',
  'upgrade',
  'connection',
  'openai-beta',
]);

/** Validates {@link OpenAILiveModelOptions}; throws a `UserError` with code `invalid_option` before any connection. */
export function resolveLiveOptions(options: OpenAILiveModelOptions = {}): ResolvedLiveOptions {
  if (options === null || typeof options !== 'object')
    throw invalidOption('OpenAILiveModel options must be an object.');
  OPTIONS.check(options);
  checkNestedLiveOptionKeys(options, OPTIONS.owner);
  const apiKey = resolveApiKeySource(options);
  const authHeader = options.authHeader ?? 'bearer';
  if (authHeader !== 'bearer' && authHeader !== 'api-key')
    throw invalidOption("authHeader must be 'bearer' or 'api-key'.");
  const model = options.model ?? 'gpt-live-1';
  if (typeof model !== 'string' || model.trim() === '')
    throw invalidOption('model must be a non-empty string.');
  const url = socketURL(options.url, DEFAULT_URL);
  if (url.search || url.username || url.password) {
    throw invalidOption(
      'url must have no query string and no credentials: GPT-Live takes the model in session.start.',
    );
  }
  const delegation = options.delegation ?? 'client';
  if (delegation !== 'client' && delegation !== 'responses') {
    throw invalidOption("delegation must be 'client' or 'responses'.");
  }
  const backend = options.backend;
  if (delegation === 'responses' && (typeof backend?.model !== 'string' || backend.model === '')) {
    throw invalidOption("delegation 'responses' needs backend: { model } (e.g. { model: 'gpt-5.5' }).");
  }
  if (delegation === 'client' && backend !== undefined) {
    throw invalidOption("backend is only used with delegation: 'responses'.");
  }
  if (backend?.instructions !== undefined && typeof backend.instructions !== 'string') {
    throw invalidOption('backend.instructions must be a string.');
  }
  const ack = options.acknowledgementDelayMs;
  if (ack !== undefined && (!Number.isInteger(ack) || ack < 0)) {
    throw invalidOption('acknowledgementDelayMs must be a non-negative integer (ms).');
  }
  const input = checkInput(options.input ?? []);
  if (options.headers !== undefined && !isObject(options.headers)) {
    throw invalidOption('headers must be an object of header names and values.');
  }
  const headers = upgradeHeaders(
    options.headers,
    RESERVED_HEADERS,
    (name) => `headers must not set "${name}".`,
  );
  checkWebSocketConstructor(options.WebSocket);
  const style = options.webSocketStyle;
  if (style === 'browser') {
    throw invalidOption(
      'GPT-Live has no browser keys: connect from a server (webSocketStyle "ws" or "headers-init").',
    );
  }
  if (style !== undefined && style !== 'ws' && style !== 'headers-init') {
    throw invalidOption("webSocketStyle must be 'ws' or 'headers-init'; leave it out to detect it.");
  }
  const clock = resolveClockOption(options.clock, invalidOption);
  const sessionId = options.sessionId;
  if (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId.trim() === '')) {
    throw invalidOption("sessionId must be a GPT-Live session's id (a SIP call's, e.g. 'live_…').");
  }
  return {
    apiKey,
    authHeader,
    model,
    url: url.href,
    headers,
    sessionId,
    delegation,
    backend,
    acknowledgementDelayMs: ack,
    input,
    silenceFrameMs: positiveMs(options.silenceFrameMs, 'silenceFrameMs', DEFAULT_SILENCE_FRAME_MS),
    turnGapMs: positiveMs(options.turnGapMs, 'turnGapMs', DEFAULT_TURN_GAP_MS),
    WebSocket: options.WebSocket,
    webSocketStyle: options.webSocketStyle,
    clock,
    connectTimeoutMs: positiveMs(options.connectTimeoutMs, 'connectTimeoutMs', DEFAULT_CONNECT_TIMEOUT_MS),
    closeTimeoutMs: positiveMs(options.closeTimeoutMs, 'closeTimeoutMs', DEFAULT_CLOSE_TIMEOUT_MS),
    keepalive: resolveKeepalive(options.keepalive, OPTIONS.owner, invalidOption),
  };
}

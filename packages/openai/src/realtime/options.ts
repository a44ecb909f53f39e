import type { Clock } from '@parley/core';
import { invalidOption, optionKeys, positiveMs, resolveClockOption } from '@parley/core/internal';
import type { WebSocketConstructor, WebSocketStyle } from '@parley/transport';
import { type KeepaliveOptions, type ResolvedKeepalive, resolveKeepalive } from '@parley/transport';
import { DEFAULT_CLOSE_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS } from '../constants.js';
import { type ApiKeySource, resolveApiKeySource } from '../shared/api-key.js';
import {
  checkWebSocketConstructor,
  sessionConfigOption,
  socketURL,
  upgradeHeaders,
} from '../shared/option-checks.js';
import type { WireSession } from '../shared/realtime-wire.js';

/**
 * OpenAI's own turn-detection settings, passed as `turnDetection.providerOptions` (the session's neutral
 * `createResponse`, `interruptResponse` and `silenceDurationMs` stay where they are):
 * `type` picks the detector (default `server_vad`); `threshold` and `prefixPaddingMs` tune `server_vad`,
 * `eagerness` tunes `semantic_vad`.
 */
export interface OpenAITurnDetectionOptions {
  type?: 'server_vad' | 'semantic_vad';
  threshold?: number;
  prefixPaddingMs?: number;
  eagerness?: 'low' | 'medium' | 'high' | 'auto';
}

/** Provider-specific GA session fields applied under the seam's configuration (e.g. `noise_reduction`). */
export type OpenAIRealtimeSessionConfig = Partial<Omit<WireSession, 'type'>>;

/** Options of {@link OpenAIRealtimeModel}. Exactly one of `apiKey` / `apiKeyProvider` (or `OPENAI_API_KEY`). */
export interface OpenAIRealtimeModelOptions {
  /** An API key or an ephemeral `ek_` key. Defaults to the `OPENAI_API_KEY` environment variable. */
  apiKey?: string;
  /** Called before every connection, e.g. to mint a fresh ephemeral key. */
  apiKeyProvider?: () => string | Promise<string>;
  /** The model in the URL. Default `gpt-realtime` (unless `intent` or `callId` names the target instead). */
  model?: string;
  /**
   * `'transcription'`: open a transcription session (`?intent=transcription`, no model in the URL): its
   * `session.update`s carry `type: 'transcription'` and only the input audio settings; the service creates no
   * responses and sends input transcription events. Not together with `model` or `callId`.
   */
  intent?: 'transcription';
  /**
   * Attach to an existing call (`?call_id=rtc_…`, e.g. a WebRTC or SIP call) to control it from the server side.
   * Not together with `model` or `intent`.
   */
  callId?: string;
  /**
   * The endpoint, without the `model` query parameter (added unless the URL already names a `model`,
   * `deployment`, `intent` or `call_id`). Default `wss://api.openai.com/v1/realtime`.
   */
  url?: string;
  /** Extra upgrade headers (e.g. `OpenAI-Organization`). Authorization is set from the key. */
  headers?: Record<string, string>;
  /** The WebSocket constructor. Default `globalThis.WebSocket` where it exists, else the `ws` package. */
  WebSocket?: WebSocketConstructor;
  /** How `WebSocket` takes headers; detected from the constructor and the runtime when left out. */
  webSocketStyle?: WebSocketStyle;
  /** GA session fields the seam does not cover, merged under every `session.update`. */
  sessionConfig?: OpenAIRealtimeSessionConfig;
  /** Time source for the connect and close timeouts. Default the system clock. */
  clock?: Clock;
  /** How long `connect()` waits for the session to be ready. Default 30 000 ms. */
  connectTimeoutMs?: number;
  /** How long `close()` waits for the closing handshake before giving up on it. Default 5 000 ms. */
  closeTimeoutMs?: number;
  /**
   * Pings the service while the connection is open (on `clock`), so a connection that died without a close or an
   * error (a dropped NAT mapping, a vanished peer) is noticed: a ping unanswered within `timeoutMs` ends the
   * connection (`connection_status: disconnected`; a `RealtimeSession` reconnects). Default
   * `{ intervalMs: 30_000, timeoutMs: 10_000 }`; `false` sends no pings. Only a socket that can ping does (the `ws`
   * package's: the default on Node 20, pass it as `WebSocket` on Node 22+); a WHATWG WebSocket (browsers, Node 22's
   * global) cannot, and then nothing is sent.
   */
  keepalive?: KeepaliveOptions | false;
}

/** The validated options. */
export interface ResolvedRealtimeOptions {
  apiKey: ApiKeySource;
  model: string;
  /** What the URL opens: a model session, a transcription session or an existing call. */
  target: 'model' | 'transcription' | 'call';
  /** The URL to open (its target parameter set), as a string: a `URL` object would be kept per model. */
  url: string;
  headers: Record<string, string>;
  WebSocket: WebSocketConstructor | undefined;
  webSocketStyle: WebSocketStyle | undefined;
  sessionConfig: OpenAIRealtimeSessionConfig;
  clock: Clock;
  connectTimeoutMs: number;
  closeTimeoutMs: number;
  keepalive: ResolvedKeepalive;
}

const MODEL_OPTIONS = optionKeys<OpenAIRealtimeModelOptions>('OpenAIRealtimeModelOptions', {
  apiKey: true,
  apiKeyProvider: true,
  model: true,
  intent: true,
  callId: true,
  url: true,
  headers: true,
  WebSocket: true,
  webSocketStyle: true,
  sessionConfig: true,
  clock: true,
  connectTimeoutMs: true,
  closeTimeoutMs: true,
  keepalive: true,
});
const DEFAULT_URL = 'wss://api.openai.com/v1/realtime';
/** Upgrade headers an app may not set: the adapter owns authentication, the handshake and the protocol. */
export const RESERVED_UPGRADE_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'api-key',
  'host',
  'upgrade',
  'connection',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-protocol',
  'sec-websocket-extensions',
  'openai-beta',
]);
const URL_TARGET_PARAMS = ['model', 'deployment', 'intent', 'call_id'];

/**
 * What the connection opens. Exactly one target: `model`, `intent`, `callId`, or one named in `url` already; two
 * are ambiguous (the service takes exactly one), so they are refused instead of one being dropped silently.
 */
function resolveTarget(
  options: OpenAIRealtimeModelOptions,
  url: URL,
): { kind: ResolvedRealtimeOptions['target']; param?: string; value: string } {
  const named = [
    options.model !== undefined && 'model',
    options.intent !== undefined && 'intent',
    options.callId !== undefined && 'callId',
    ...URL_TARGET_PARAMS.filter((name) => url.searchParams.has(name)).map((name) => `url ?${name}=`),
  ].filter((name): name is string => typeof name === 'string');
  if (named.length > 1) {
    throw invalidOption(
      `Ambiguous realtime target: ${named.join(' and ')} both name what to open. Pass exactly one: model (a model ` +
        "session), intent: 'transcription' (a transcription session) or callId (attach to an existing call).",
    );
  }
  if (options.intent !== undefined) return { kind: 'transcription', param: 'intent', value: 'transcription' };
  if (options.callId !== undefined) return { kind: 'call', param: 'call_id', value: options.callId };
  if (url.searchParams.has('intent')) return { kind: 'transcription', value: '' };
  if (url.searchParams.has('call_id')) return { kind: 'call', value: '' };
  if (URL_TARGET_PARAMS.some((name) => url.searchParams.has(name))) return { kind: 'model', value: '' };
  return { kind: 'model', param: 'model', value: options.model ?? 'gpt-realtime' };
}

/** Validates {@link OpenAIRealtimeModelOptions}; throws a `UserError` with code `invalid_option`. */
export function resolveRealtimeOptions(options: OpenAIRealtimeModelOptions = {}): ResolvedRealtimeOptions {
  if (options === null || typeof options !== 'object')
    throw invalidOption('OpenAIRealtimeModel options must be an object.');
  MODEL_OPTIONS.check(options);
  const apiKey = resolveApiKeySource(options);

  const model = options.model ?? 'gpt-realtime';
  if (typeof model !== 'string' || model.trim() === '')
    throw invalidOption('model must be a non-empty string.');
  if (options.intent !== undefined && options.intent !== 'transcription') {
    throw invalidOption(
      "intent must be 'transcription' (a transcription session); leave it out for a model session.",
    );
  }
  if (options.callId !== undefined && (typeof options.callId !== 'string' || !/^\S+$/.test(options.callId))) {
    throw invalidOption(
      'callId must be a non-empty string without spaces (the id of an existing call, e.g. rtc_…).',
    );
  }

  const url = socketURL(options.url, DEFAULT_URL);
  if (url.username || url.password || url.searchParams.has('api-key') || url.searchParams.has('api_key')) {
    throw invalidOption('url must not carry credentials; pass the key as apiKey (it is sent in a header).');
  }
  const target = resolveTarget(options, url);
  if (target.param) url.searchParams.set(target.param, target.value);

  const headers = upgradeHeaders(
    options.headers,
    RESERVED_UPGRADE_HEADERS,
    (name) =>
      `headers must not set "${name}": authentication comes from apiKey, and the adapter speaks the GA protocol.`,
  );
  checkWebSocketConstructor(options.WebSocket);
  const style = options.webSocketStyle;
  if (style !== undefined && style !== 'ws' && style !== 'headers-init' && style !== 'browser') {
    throw invalidOption("webSocketStyle must be 'ws', 'headers-init' or 'browser'.");
  }
  const sessionConfig = sessionConfigOption(options.sessionConfig);

  return {
    apiKey,
    model,
    target: target.kind,
    url: url.href,
    headers,
    WebSocket: options.WebSocket,
    webSocketStyle: style,
    sessionConfig,
    clock: resolveClockOption(options.clock, invalidOption),
    connectTimeoutMs: positiveMs(options.connectTimeoutMs, 'connectTimeoutMs', DEFAULT_CONNECT_TIMEOUT_MS),
    closeTimeoutMs: positiveMs(options.closeTimeoutMs, 'closeTimeoutMs', DEFAULT_CLOSE_TIMEOUT_MS),
    keepalive: resolveKeepalive(options.keepalive, MODEL_OPTIONS.owner, invalidOption),
  };
}

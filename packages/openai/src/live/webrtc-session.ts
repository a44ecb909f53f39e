import { invalidOption, optionKeys } from '@parley/core/internal';
import { assertApiKeyShape } from '../shared/api-key.js';
import { authenticatedPost } from '../shared/authenticated-post.js';
import { endpointURL } from '../shared/base-url.js';
import { LIVE_DATA_CHANNEL_CLIENT_EVENTS } from '../shared/live-wire-events.js';
import type { LiveSessionConfig } from '../shared/live-wire-session.js';
import { redactSecrets } from '../shared/redact.js';
import { OpenAILiveError } from './errors.js';

/** A client event type a browser's data channel may be allowed to send. */
export type LiveDataChannelClientEvent = (typeof LIVE_DATA_CHANNEL_CLIENT_EVENTS)[number];

/**
 * What a browser may send by default: mute and unmute its microphone, nothing that changes the agent (instructions,
 * tools, delegation) or answers a tool call in the server's place.
 */
export const DEFAULT_BROWSER_CLIENT_EVENTS: readonly LiveDataChannelClientEvent[] = Object.freeze([
  'session.input_audio.mute',
  'session.input_audio.unmute',
]);

/** Options of {@link createLiveWebRTCSession}. */
export interface CreateLiveWebRTCSessionOptions {
  /** A standard API key; stays on your server (GPT-Live has no client secrets). */
  apiKey: string;
  /** The browser's SDP offer, as it sent it to your server. */
  offerSdp: string;
  /** The session to start (`type: 'live'` is added; `model` defaults to `gpt-live-1`); no `audio.format` (WebRTC negotiates it). */
  session?: Partial<Omit<LiveSessionConfig, 'client'>> & { safety_identifier?: string | null };
  /**
   * The client events the browser may send on its data channel; the service drops the others. Default
   * {@link DEFAULT_BROWSER_CLIENT_EVENTS}. `'all'` trusts the browser with everything the data channel carries.
   */
  allowedClientEvents?: readonly LiveDataChannelClientEvent[] | 'all';
  /** The server events the browser receives. Default `'all'`. */
  allowedServerEvents?: 'all' | readonly { type: string; response_event?: string }[];
  /** The API root; `POST {baseURL}/live/sessions` is called. Default `https://api.openai.com/v1`. */
  baseURL?: string;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  signal?: AbortSignal;
}

/** A started GPT-Live WebRTC session: give `answerSdp` to the browser; keep `sessionId` to attach a sideband. */
export interface LiveWebRTCSession {
  sessionId: string;
  answerSdp: string;
}

const OPTIONS = optionKeys<CreateLiveWebRTCSessionOptions>('CreateLiveWebRTCSessionOptions', {
  apiKey: true,
  offerSdp: true,
  session: true,
  allowedClientEvents: true,
  allowedServerEvents: true,
  baseURL: true,
  fetch: true,
  signal: true,
});

const DATA_CHANNEL_EVENTS: ReadonlySet<string> = new Set(LIVE_DATA_CHANNEL_CLIENT_EVENTS);

/** The allow-list as the service takes it, after refusing any name a data channel cannot carry. */
function allowList(events: CreateLiveWebRTCSessionOptions['allowedClientEvents']): 'all' | string[] {
  if (events === undefined) return [...DEFAULT_BROWSER_CLIENT_EVENTS];
  if (events === 'all') return 'all';
  if (!Array.isArray(events)) {
    throw invalidOption("allowedClientEvents must be a list of client event types, or 'all'.");
  }
  for (const type of events) {
    if (!DATA_CHANNEL_EVENTS.has(type)) {
      throw invalidOption(
        `allowedClientEvents: "${String(type)}" cannot be sent on a WebRTC data channel (the session starts by HTTP, ` +
          'audio travels on the media track, fixtures and DTMF belong to the sideband). Allowed names: ' +
          `${LIVE_DATA_CHANNEL_CLIENT_EVENTS.join(', ')}.`,
      );
    }
  }
  return [...new Set(events)];
}

/**
 * The server side of a browser's GPT-Live WebRTC call (GPT-Live has no client secrets, so the browser never talks
 * to OpenAI with a key): your endpoint receives the browser's SDP offer, calls this with your key, and returns
 * `answerSdp`. It starts the session (`POST /v1/live/sessions` with `transport: { type: 'webrtc', sdp }`) and limits
 * what the browser may send on its data channel (`session.client.data_channel.allowed_client_events`): by default
 * only mute and unmute; your server keeps tools and guardrails on a sideband attached to `sessionId`.
 */
export async function createLiveWebRTCSession(
  options: CreateLiveWebRTCSessionOptions,
): Promise<LiveWebRTCSession> {
  OPTIONS.check(options ?? {});
  assertApiKeyShape(options.apiKey, 'apiKey');
  if (typeof options.offerSdp !== 'string' || !options.offerSdp.trimStart().startsWith('v=')) {
    throw invalidOption('offerSdp must be the browser\'s SDP offer (text starting with "v=").');
  }
  const session = options.session ?? {};
  if ((session as { audio?: { format?: unknown } }).audio?.format !== undefined) {
    throw invalidOption('Leave out session.audio.format: WebRTC negotiates the media.');
  }
  if ('client' in session) {
    throw invalidOption(
      'Set what the browser may send with allowedClientEvents / allowedServerEvents, not session.client.',
    );
  }
  const allowedServerEvents = options.allowedServerEvents ?? 'all';
  const url = endpointURL(options.baseURL, '/live/sessions');
  const { apiKey } = options;
  const body = {
    session: {
      model: 'gpt-live-1',
      ...session,
      type: 'live',
      client: {
        data_channel: {
          allowed_client_events: allowList(options.allowedClientEvents),
          allowed_server_events: allowedServerEvents === 'all' ? 'all' : [...allowedServerEvents],
        },
      },
    },
    transport: { type: 'webrtc', sdp: options.offerSdp },
  };
  const answer = await authenticatedPost({
    url,
    key: apiKey,
    body: { json: body },
    service: 'the OpenAI API',
    fetch: options.fetch,
    signal: options.signal,
  });
  if (!answer.ok) {
    const message = answer.errorMessage === undefined ? '' : `: ${answer.errorMessage}`;
    throw new OpenAILiveError(
      answer.status === 401 || answer.status === 403 ? 'live_auth_failed' : 'live_handshake_failed',
      redactSecrets(`Starting the GPT-Live WebRTC session failed with HTTP ${answer.status}${message}`, [
        apiKey,
      ]),
      { status: answer.status },
    );
  }
  const result = answer.json as { session?: { id?: unknown }; transport?: { sdp?: unknown } } | undefined;
  const sessionId = result?.session?.id;
  const answerSdp = result?.transport?.sdp;
  if (typeof sessionId !== 'string' || typeof answerSdp !== 'string') {
    throw new OpenAILiveError(
      'live_handshake_failed',
      'The GPT-Live service started the session without a session id or an SDP answer.',
      { status: answer.status },
    );
  }
  return { sessionId, answerSdp };
}

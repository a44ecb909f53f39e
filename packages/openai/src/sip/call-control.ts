import { brand, invalidOption, optionKeys } from '@parley/core/internal';
import { abortable } from '../responses/abort.js';
import { CLIENT_OPTION_KEYS, type OpenAIClientOptions, resolveClientOptions } from '../responses/options.js';
import { ResponsesTransport } from '../responses/transport.js';
import { endpointURL } from '../shared/base-url.js';
import type { LiveSessionConfig } from '../shared/live-wire-session.js';
import type { WireSession } from '../shared/realtime-wire.js';
import type { IncomingLiveSipCall, IncomingRealtimeSipCall } from './incoming-call.js';

/** Options of {@link OpenAISipCallControl}: the connection options of the other HTTP calls of the package. */
export type OpenAISipCallControlOptions = Omit<OpenAIClientOptions, 'structuredOutput'>;

/** The call to control: an incoming call as `onCall` received it, or its id. */
export type SipCallTarget =
  | Pick<IncomingRealtimeSipCall, 'api' | 'callId'>
  | Pick<IncomingLiveSipCall, 'api' | 'sessionId'>;

/** The session a Realtime call is accepted with (`type: 'realtime'` is added; `model` defaults to `gpt-realtime`). */
export type RealtimeSipSession = Partial<Omit<WireSession, 'type'>>;

/**
 * The session a GPT-Live call is accepted with (`type: 'live'` is added; `model` defaults to `gpt-live-1`). SIP
 * negotiates the media, so `audio.format` is refused.
 */
export type LiveSipSession = Partial<Omit<LiveSessionConfig, 'audio'>> & {
  audio?: { output?: NonNullable<LiveSessionConfig['audio']>['output'] };
  safety_identifier?: string | null;
};

const { structuredOutput: _, ...CONTROL_OPTION_KEYS } = CLIENT_OPTION_KEYS;
const OPTIONS = optionKeys<OpenAISipCallControlOptions>('OpenAISipCallControlOptions', CONTROL_OPTION_KEYS);

function pathOf(call: SipCallTarget): string {
  const id = call?.api === 'realtime' ? call.callId : call?.api === 'live' ? call.sessionId : undefined;
  if (typeof id !== 'string' || id.length === 0) {
    throw invalidOption(
      'Pass the call as onCall received it: { api: "realtime", callId } or { api: "live", sessionId }.',
    );
  }
  const root = call.api === 'realtime' ? '/realtime/calls/' : '/live/sessions/';
  return `${root}${encodeURIComponent(id)}`;
}

/**
 * Answers and steers SIP calls: accept, reject, refer (transfer) and hang up, for Realtime calls
 * (`/v1/realtime/calls/{id}/…`) and GPT-Live sessions (`/v1/live/sessions/{id}/…`). Failures are the package's
 * HTTP errors (`OpenAIAPIError` subclasses by status, `ServiceUnreachableError`), retried like every other request
 * (429, 5xx, network errors); the key never appears in them.
 */
export class OpenAISipCallControl {
  static {
    brand(OpenAISipCallControl, 'openai.OpenAISipCallControl');
  }

  readonly #options: ReturnType<typeof resolveClientOptions>;
  readonly #baseURL: string | undefined;

  /** Validates `options` without any network access. */
  constructor(options: OpenAISipCallControlOptions = {}) {
    this.#options = resolveClientOptions(options, OPTIONS);
    this.#baseURL = options.baseURL;
  }

  /** Answers the call with `session` (the agent's instructions, voice, tools…). */
  async accept(
    call: SipCallTarget,
    session: RealtimeSipSession | LiveSipSession = {},
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    if (call?.api === 'live') {
      const audio = (session as { audio?: { format?: unknown } }).audio;
      if (audio?.format !== undefined) {
        throw invalidOption('Leave out audio.format when accepting a SIP call: SIP negotiates the media.');
      }
      const body = { session: { model: 'gpt-live-1', ...session, type: 'live' } };
      return this.#post(call, '/accept', body, options.signal);
    }
    return this.#post(
      call,
      '/accept',
      { model: 'gpt-realtime', ...session, type: 'realtime' },
      options.signal,
    );
  }

  /**
   * Declines the call with a SIP status (300–699; default 603 Decline). The caller hears it as busy, declined or
   * unavailable according to the code.
   */
  async reject(
    call: SipCallTarget,
    options: { statusCode?: number; signal?: AbortSignal } = {},
  ): Promise<void> {
    const statusCode = options.statusCode ?? 603;
    if (!Number.isInteger(statusCode) || statusCode < 300 || statusCode > 699) {
      throw invalidOption(
        `statusCode must be a SIP final status between 300 and 699 (e.g. 486 Busy Here, 603 Decline), got ${String(options.statusCode)}.`,
      );
    }
    return this.#post(call, '/reject', { status_code: statusCode }, options.signal);
  }

  /** Transfers the call (SIP REFER) to `targetUri`, a `sip:`, `sips:` or `tel:` URI. */
  async refer(call: SipCallTarget, targetUri: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    if (typeof targetUri !== 'string' || !/^(sips?|tel):\S+$/i.test(targetUri)) {
      throw invalidOption(
        `targetUri must be a sip:, sips: or tel: URI (e.g. "tel:+14155550123"), got ${JSON.stringify(targetUri)}.`,
      );
    }
    return this.#post(call, '/refer', { target_uri: targetUri }, options.signal);
  }

  /** Ends the call. */
  async hangUp(call: SipCallTarget, options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.#post(call, '/hangup', undefined, options.signal);
  }

  async #post(call: SipCallTarget, action: string, body: unknown, signal: AbortSignal | undefined) {
    const url = endpointURL(this.#baseURL, `${pathOf(call)}${action}`);
    const result = await new ResponsesTransport(this.#options, url).post(body ?? {}, {
      signal,
      stream: false,
      read: async (response, readSignal) => {
        await abortable(response.text(), readSignal);
      },
    });
    result.dispose();
  }
}

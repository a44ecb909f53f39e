import {
  type Agent,
  type RealtimeModel,
  RealtimeSession,
  type RealtimeSessionOptions,
  UserError,
} from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import type { WebSocketConstructor } from '@parley/transport';
import { OpenAILiveModel } from '../live/openai-live-model.js';
import { OpenAIRealtimeModel } from '../realtime/openai-realtime-model.js';
import type { OpenAIRealtimeSessionConfig } from '../realtime/options.js';
import { type LiveSipSession, OpenAISipCallControl, type RealtimeSipSession } from './call-control.js';
import { SipCallOptionError } from './errors.js';
import type { IncomingSipCall, SipHeader } from './incoming-call.js';

/** Options of {@link answerSipCall}. */
export interface AnswerSipCallOptions<TContext> {
  /** The agent that takes the call: its instructions and tools run on your server, over the sideband. */
  agent: Agent<TContext>;
  /** The project key (stays on your server). Default `OPENAI_API_KEY`. */
  apiKey?: string;
  /**
   * The session the call is accepted with. Realtime (`model` defaults to `gpt-realtime`): the agent's config follows
   * on the sideband. GPT-Live (`model` defaults to `gpt-live-1`): its instructions are fixed here, so they default to
   * the agent's (when they are a string).
   */
  accept?: RealtimeSipSession | LiveSipSession;
  /**
   * GPT-Live calls: the text agent that answers the voice's delegations (the voice model calls no tools; see
   * `RealtimeSession`'s `delegate`). Refused for a Realtime call (`SipCallOptionError`).
   */
  delegate?: Agent<TContext>;
  /**
   * Realtime calls: GA session fields every sideband `session.update` carries (as `OpenAIRealtimeModel`'s
   * `sessionConfig`). Refused for a GPT-Live call (`SipCallOptionError`): its session is fixed by `accept`.
   */
  sessionConfig?: OpenAIRealtimeSessionConfig;
  /** The session's options besides its model (context, memory, guardrails, events…). */
  session?: Omit<RealtimeSessionOptions<TContext>, 'model'>;
  /** The HTTP API root for call control. Default `https://api.openai.com/v1`. */
  baseURL?: string;
  /**
   * The sideband's WebSocket endpoint of a Realtime call. Default `wss://api.openai.com/v1/realtime`. Refused for a
   * GPT-Live call (`SipCallOptionError`).
   */
  realtimeURL?: string;
  /**
   * GPT-Live's sessions endpoint, under which a call's sideband is (`/{id}/attach`). Default
   * `wss://api.openai.com/v1/live/sessions`. Refused for a Realtime call (`SipCallOptionError`).
   */
  liveURL?: string;
  /** The WebSocket class for the sideband (as `OpenAIRealtimeModel`'s). */
  WebSocket?: WebSocketConstructor;
  /** Call control to use instead of one made from `apiKey` and `baseURL`. */
  control?: OpenAISipCallControl;
}

const ANSWER_OPTIONS = optionKeys<AnswerSipCallOptions<unknown>>('AnswerSipCallOptions', {
  agent: true,
  apiKey: true,
  accept: true,
  delegate: true,
  sessionConfig: true,
  session: true,
  baseURL: true,
  realtimeURL: true,
  liveURL: true,
  WebSocket: true,
  control: true,
});

/** What to use instead of each option that only one kind of call takes, on the other kind. */
const OTHER_API_OPTIONS = {
  live: {
    sessionConfig:
      "A GPT-Live call's session is fixed when it is accepted: put its fields in accept (a LiveSipSession).",
    realtimeURL: "A GPT-Live call's sideband is under liveURL.",
  },
  realtime: {
    delegate: "A Realtime call's agent calls its tools itself: give the agent the tools.",
    liveURL: "A Realtime call's sideband is realtimeURL.",
  },
} as const;

/** Refuses an option that does not apply to a call of `api` (before the call is accepted). */
function refuseOptionsOfOtherApi<TContext>(
  api: 'realtime' | 'live',
  options: AnswerSipCallOptions<TContext>,
): void {
  for (const [option, instead] of Object.entries(OTHER_API_OPTIONS[api])) {
    if (options[option as keyof AnswerSipCallOptions<TContext>] !== undefined) {
      throw new SipCallOptionError(option, api, instead);
    }
  }
}

/** An answered SIP call: its session on the sideband, and the call's controls. */
export interface SipCall<TContext> {
  /**
   * The agent's session, attached to the call (Realtime: `?call_id=`; GPT-Live: `/attach`): the service plays its
   * audio on the phone line.
   */
  readonly session: RealtimeSession<TContext>;
  /** The call's id: a Realtime call id, or a GPT-Live session id. */
  readonly callId: string;
  /** The caller's INVITE headers: caller-controlled, **untrusted** (route or greet with them, never authorize). */
  readonly sipHeaders: readonly SipHeader[];
  /** Transfers the call (SIP REFER) to a `sip:`, `sips:` or `tel:` URI, and closes the session. */
  refer(targetUri: string): Promise<void>;
  /** Hangs up and closes the session. Idempotent. */
  hangUp(): Promise<void>;
}

/**
 * Answers a SIP call announced to `OpenAISipWebhookHandler`'s `onCall`: accepts it, then runs `agent` as a
 * `RealtimeSession` on a sideband attached to the call, so tools and guardrails run on your server while the audio
 * stays on the phone line. The service plays that audio: a Realtime session interrupts with a cancel plus
 * `output_audio_buffer.clear` and takes what the caller heard from the service; a GPT-Live call (`OpenAILiveModel`
 * on `/v1/live/sessions/{id}/attach`) delegates to `delegate`, and GPT-Live stops its voice by itself when the caller
 * talks over it. If the sideband cannot be opened, the call is hung up and the error rethrown.
 */
export async function answerSipCall<TContext>(
  call: IncomingSipCall,
  options: AnswerSipCallOptions<TContext>,
): Promise<SipCall<TContext>> {
  ANSWER_OPTIONS.check(options ?? {});
  const live = call?.api === 'live' && typeof call.sessionId === 'string';
  if (!live && (call?.api !== 'realtime' || typeof call.callId !== 'string')) {
    throw new UserError(
      'answerSipCall answers the calls onCall receives: { api: "realtime", callId } or { api: "live", sessionId }.',
      { code: 'invalid_option' },
    );
  }
  refuseOptionsOfOtherApi(live ? 'live' : 'realtime', options);
  const apiKey =
    options.apiKey ??
    (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.OPENAI_API_KEY;
  const control =
    options.control ??
    new OpenAISipCallControl({
      ...(apiKey !== undefined && { apiKey }),
      ...(options.baseURL !== undefined && { baseURL: options.baseURL }),
    });
  const callId = call.api === 'live' ? call.sessionId : call.callId;
  let model: RealtimeModel;
  let accept: RealtimeSipSession | LiveSipSession = options.accept ?? {};
  if (call.api === 'live') {
    model = new OpenAILiveModel({
      ...(apiKey !== undefined && { apiKey }),
      sessionId: call.sessionId,
      ...(options.liveURL !== undefined && { url: options.liveURL }),
      ...(options.WebSocket !== undefined && { WebSocket: options.WebSocket }),
    });
    const instructions = options.agent.instructions;
    if (!('instructions' in accept) && typeof instructions === 'string') accept = { ...accept, instructions };
  } else {
    model = new OpenAIRealtimeModel({
      ...(apiKey !== undefined && { apiKey }),
      callId: call.callId,
      ...(options.realtimeURL !== undefined && { url: options.realtimeURL }),
      ...(options.WebSocket !== undefined && { WebSocket: options.WebSocket }),
      ...(options.sessionConfig !== undefined && { sessionConfig: options.sessionConfig }),
    });
  }
  await control.accept(call, accept);
  const session = new RealtimeSession(options.agent, {
    // A GPT-Live call ends with its session: there is nothing to reattach to.
    ...(call.api === 'live' && { reconnect: false }),
    ...options.session,
    ...(options.delegate !== undefined && { delegate: options.delegate }),
    model,
  } as RealtimeSessionOptions<TContext>);
  let ended: Promise<void> | undefined;
  const end = (how: () => Promise<void>) => {
    ended ??= (async () => {
      try {
        await how();
      } finally {
        await session.close();
      }
    })();
    return ended;
  };
  try {
    await session.connect();
  } catch (error) {
    await end(() => control.hangUp(call)).catch(() => {});
    throw error;
  }
  return {
    session,
    callId,
    sipHeaders: call.sipHeaders,
    refer: (targetUri) => end(() => control.refer(call, targetUri)),
    hangUp: () => end(() => control.hangUp(call)),
  };
}

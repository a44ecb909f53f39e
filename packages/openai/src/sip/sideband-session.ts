import { type Agent, RealtimeSession, type RealtimeSessionOptions, UserError } from '@parley/core';
import type { WebSocketConstructor } from '@parley/transport';
import { OpenAIRealtimeModel } from '../realtime/openai-realtime-model.js';
import type { OpenAIRealtimeSessionConfig } from '../realtime/options.js';
import { OpenAISipCallControl, type RealtimeSipSession } from './call-control.js';
import type { IncomingRealtimeSipCall, SipHeader } from './incoming-call.js';

/** Options of {@link answerSipCall}. */
export interface AnswerSipCallOptions<TContext> {
  /** The agent that takes the call: its instructions and tools run on your server, over the sideband. */
  agent: Agent<TContext>;
  /** The project key (stays on your server). Default `OPENAI_API_KEY`. */
  apiKey?: string;
  /** The session the call is accepted with (`model` defaults to `gpt-realtime`); the agent's config follows on the sideband. */
  accept?: RealtimeSipSession;
  /** GA session fields every sideband `session.update` carries (as `OpenAIRealtimeModel`'s `sessionConfig`). */
  sessionConfig?: OpenAIRealtimeSessionConfig;
  /** The session's options besides its model (context, memory, guardrails, events…). */
  session?: Omit<RealtimeSessionOptions<TContext>, 'model'>;
  /** The HTTP API root for call control. Default `https://api.openai.com/v1`. */
  baseURL?: string;
  /** The sideband's WebSocket endpoint. Default `wss://api.openai.com/v1/realtime`. */
  realtimeURL?: string;
  /** The WebSocket class for the sideband (as `OpenAIRealtimeModel`'s). */
  WebSocket?: WebSocketConstructor;
  /** Call control to use instead of one made from `apiKey` and `baseURL`. */
  control?: OpenAISipCallControl;
}

/** An answered SIP call: its session on the sideband, and the call's controls. */
export interface SipCall<TContext> {
  /** The agent's session, attached to the call (`?call_id=`): the service plays its audio on the phone line. */
  readonly session: RealtimeSession<TContext>;
  readonly callId: string;
  /** The caller's INVITE headers: caller-controlled, **untrusted** (route or greet with them, never authorize). */
  readonly sipHeaders: readonly SipHeader[];
  /** Transfers the call (SIP REFER) to a `sip:`, `sips:` or `tel:` URI, and closes the session. */
  refer(targetUri: string): Promise<void>;
  /** Hangs up and closes the session. Idempotent. */
  hangUp(): Promise<void>;
}

/**
 * Answers a Realtime SIP call announced to `OpenAISipWebhookHandler`'s `onCall`: accepts it, then runs `agent` as a
 * `RealtimeSession` on a sideband attached to the call by its id, so tools and guardrails run on your server while
 * the audio stays on the phone line. The service plays that audio, so the session interrupts with a cancel plus
 * `output_audio_buffer.clear` and takes what the caller heard from the service. If the sideband cannot be opened,
 * the call is hung up and the error rethrown.
 */
export async function answerSipCall<TContext>(
  call: IncomingRealtimeSipCall,
  options: AnswerSipCallOptions<TContext>,
): Promise<SipCall<TContext>> {
  if (call?.api !== 'realtime' || typeof call.callId !== 'string') {
    throw new UserError(
      'answerSipCall answers Realtime calls ({ api: "realtime", callId }); GPT-Live calls are answered with OpenAISipCallControl.',
      { code: 'invalid_option' },
    );
  }
  const apiKey =
    options.apiKey ??
    (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.OPENAI_API_KEY;
  const control =
    options.control ??
    new OpenAISipCallControl({
      ...(apiKey !== undefined && { apiKey }),
      ...(options.baseURL !== undefined && { baseURL: options.baseURL }),
    });
  const model = new OpenAIRealtimeModel({
    ...(apiKey !== undefined && { apiKey }),
    callId: call.callId,
    ...(options.realtimeURL !== undefined && { url: options.realtimeURL }),
    ...(options.WebSocket !== undefined && { WebSocket: options.WebSocket }),
    ...(options.sessionConfig !== undefined && { sessionConfig: options.sessionConfig }),
  });
  await control.accept(call, options.accept ?? {});
  const session = new RealtimeSession(options.agent, {
    ...options.session,
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
    callId: call.callId,
    sipHeaders: call.sipHeaders,
    refer: (targetUri) => end(() => control.refer(call, targetUri)),
    hangUp: () => end(() => control.hangUp(call)),
  };
}

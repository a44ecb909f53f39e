import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, TimerHandle } from '@parley/core';
import { decodeBase64, encodeBase64, isPlainObject, type LiveServerEvent } from '@parley/openai/wire';
import { callControlError, isSipRejectStatus } from '../shared/call-control.js';
import type { IncomingSipCallWebhook } from '../shared/incoming-sip-call.js';
import { deliverSignedWebhook } from '../shared/signed-webhook.js';
import { SimulatorServiceError } from '../shared/sim-errors.js';
import type { LiveSimulatorSession } from './live-sim-session.js';
import type { LiveSessionPeer } from './live-sim-socket.js';

const PCM24_BYTES_PER_MS = 48;

/** What happened to a GPT-Live SIP call on its control endpoints (`/v1/live/sessions/{id}/…`), in order. */
export type LiveSimulatorCallControl =
  | { action: 'accept'; session: Record<string, unknown> }
  | { action: 'reject'; statusCode: number }
  | { action: 'refer'; targetUri: string }
  | { action: 'hangup' };

/** Options of `LiveSimulator.incomingSipCall`. */
export interface LiveIncomingSipCallOptions extends IncomingSipCallWebhook {
  /**
   * The webhooks announcing the call, delivered in order: `live.transport.incoming` (the default) and/or the
   * deprecated `live.call.incoming` (no `data.type`), which the service may both send for one call.
   */
  eventTypes?: readonly ('live.transport.incoming' | 'live.call.incoming')[];
}

/** What the call's webhook deliveries got back. */
export interface LiveIncomingSipCallResult {
  /** The GPT-Live session id the call is controlled by (`live_…`). */
  sessionId: string;
  /** The `webhook-id` of each webhook (one per event type). */
  webhookIds: string[];
  /** The HTTP status of each delivery, in order. */
  statuses: number[];
}

/**
 * The caller's side of a simulated GPT-Live SIP call: the phone line is the session's primary. It streams the
 * caller's audio on the clock in 100 ms frames (silence between utterances: the line never stops, so the session's
 * timeline moves), and keeps what the caller heard. The app never sees this audio; it observes the call on a sideband.
 */
export class LivePhoneLine implements LiveSessionPeer {
  readonly id: string;
  readonly role = 'primary' as const;
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly #clock: Clock;
  readonly #frameMs: number;
  #resolveClosed!: (result: { code: number; reason: string }) => void;
  #session: LiveSimulatorSession | undefined;
  #timer: TimerHandle | undefined;
  #pending: Uint8Array[] = [];
  #heard: Uint8Array[] = [];
  #open = true;

  constructor(id: string, clock: Clock, frameMs = 100) {
    this.id = id;
    this.#clock = clock;
    this.#frameMs = frameMs;
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
  }

  /** The call was answered: the line starts carrying audio to `session`. */
  connect(session: LiveSimulatorSession): void {
    this.#session = session;
    this.#schedule();
  }

  /** The caller says `pcm24` (PCM16 24 kHz) from the next frame on, after what they are already saying. */
  say(pcm24: Uint8Array): void {
    this.#pending.push(pcm24);
  }

  /** The caller is still saying something. */
  get speaking(): boolean {
    return this.#pending.length > 0;
  }

  /** The caller presses a key: `transport.dtmf.received` on the session's sidebands. */
  press(digit: string): void {
    this.#session?.callerPressed(digit);
  }

  /** The caller hangs up: the session ends (`session.closed {reason: "remote_hangup"}`). */
  hangUp(): void {
    this.#session?.close('remote_hangup');
  }

  /** What the caller heard: the session's output track (PCM16 24 kHz), silence included. */
  get heardAudio(): Uint8Array {
    return Buffer.concat(this.#heard);
  }

  send(event: LiveServerEvent): void {
    if (this.#open && event.type === 'session.output_audio.delta')
      this.#heard.push(decodeBase64(event.delta));
  }

  close(code: number, reason: string): void {
    if (!this.#open) return;
    this.#open = false;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#resolveClosed({ code, reason });
  }

  terminate(): void {
    this.close(1006, 'line dropped');
  }

  #schedule(): void {
    this.#timer = this.#clock.setTimeout(() => {
      const session = this.#session;
      if (!this.#open || !session || session.closed) return;
      session.handle(this, { type: 'session.input_audio.append', audio: encodeBase64(this.#frame()) });
      this.#schedule();
    }, this.#frameMs);
  }

  /** The next frame of the caller's audio (silence padded). */
  #frame(): Uint8Array {
    const frame = new Uint8Array(this.#frameMs * PCM24_BYTES_PER_MS);
    let at = 0;
    while (at < frame.length && this.#pending.length > 0) {
      const head = this.#pending[0] as Uint8Array;
      const take = Math.min(head.length, frame.length - at);
      frame.set(head.subarray(0, take), at);
      at += take;
      if (take === head.length) this.#pending.shift();
      else this.#pending[0] = head.subarray(take);
    }
    return frame;
  }
}

/** A GPT-Live SIP call as the simulator keeps it. */
export interface LiveSimulatorCall {
  readonly sessionId: string;
  state: 'ringing' | 'accepted' | 'rejected' | 'referred' | 'ended';
  readonly control: LiveSimulatorCallControl[];
  readonly sipHeaders: readonly { name: string; value: string }[];
  /** The caller's phone line. */
  readonly line: LivePhoneLine;
  /** The session, once the call is accepted. */
  session?: LiveSimulatorSession;
}

/** What the call routes need from the simulator. */
export interface LiveCallRoutesHost {
  readonly calls: Map<string, LiveSimulatorCall>;
  /** Starts the session of an accepted call (`session` is the accept body's, `type` removed). */
  answer(call: LiveSimulatorCall, session: Record<string, unknown>): void;
}

const ACTIONS = new Set(['accept', 'reject', 'refer', 'hangup']);

const error = callControlError;

/**
 * `POST /v1/live/sessions/{id}/accept|reject|refer|hangup` (call control of a GPT-Live SIP call). `path` is the
 * request's path below the API prefix; returns `false` for any other request. The caller checked the credentials.
 */
export async function handleLiveCallRequest(
  host: LiveCallRoutesHost,
  request: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<boolean> {
  const match = /^\/v1\/live\/sessions\/([^/]+)\/([^/]+)$/.exec(path);
  if (request.method !== 'POST' || !match) return false;
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const call = host.calls.get(decodeURIComponent(match[1] as string));
  const action = match[2] as string;
  if (!call || !ACTIONS.has(action)) {
    error(res, 404, call ? 'Not found' : `No session found with id '${match[1]}'.`, 'not_found');
    return true;
  }
  let parsed: unknown = {};
  try {
    const body = Buffer.concat(chunks).toString('utf8');
    parsed = body ? JSON.parse(body) : {};
  } catch {
    error(res, 400, 'The body is not valid JSON.');
    return true;
  }
  const fields = isPlainObject(parsed) ? parsed : {};
  const pending = call.state === 'ringing';
  if (action !== 'hangup' && !pending) {
    error(res, 409, `The call is ${call.state}: it can no longer be ${action}ed.`, 'invalid_state');
    return true;
  }
  switch (action) {
    case 'accept': {
      const session = isPlainObject(fields.session) ? fields.session : undefined;
      if (session?.type !== 'live') {
        error(
          res,
          400,
          "Missing required parameter: 'session.type' (must be 'live').",
          'missing_required_parameter',
        );
        return true;
      }
      const { type: _type, safety_identifier: _safety, ...config } = session;
      if (isPlainObject(config.audio) && 'format' in config.audio) {
        error(res, 400, 'SIP negotiates the media: omit session.audio.format.', 'unknown_parameter');
        return true;
      }
      try {
        host.answer(call, config);
      } catch (cause) {
        if (!(cause instanceof SimulatorServiceError)) throw cause;
        error(res, 400, cause.message, cause.code ?? 'invalid_request_error');
        return true;
      }
      call.state = 'accepted';
      call.control.push({ action: 'accept', session });
      break;
    }
    case 'reject': {
      const statusCode = fields.status_code;
      if (!isSipRejectStatus(statusCode)) {
        error(res, 400, 'status_code is required: an integer between 300 and 699.', 'invalid_value');
        return true;
      }
      call.state = 'rejected';
      call.control.push({ action: 'reject', statusCode });
      call.line.close(1000, 'rejected');
      break;
    }
    case 'refer': {
      if (typeof fields.target_uri !== 'string') {
        error(res, 400, "Missing required parameter: 'target_uri'.", 'missing_required_parameter');
        return true;
      }
      call.state = 'referred';
      call.control.push({ action: 'refer', targetUri: fields.target_uri });
      call.session?.close('close_requested');
      call.line.close(1000, 'referred');
      break;
    }
    default:
      call.state = 'ended';
      call.control.push({ action: 'hangup' });
      call.session?.close('close_requested');
      call.line.close(1000, 'hung up');
  }
  res.writeHead(200);
  res.end();
  return true;
}

/** Delivers the signed webhooks announcing `call` (Standard Webhooks). */
export async function deliverLiveIncomingCall(
  call: LiveSimulatorCall,
  options: LiveIncomingSipCallOptions,
): Promise<LiveIncomingSipCallResult> {
  const timestamp = options.timestampSeconds ?? Math.floor(Date.now() / 1000);
  const webhookIds: string[] = [];
  const statuses: number[] = [];
  for (const type of options.eventTypes ?? ['live.transport.incoming']) {
    const webhookId = `wh_${call.sessionId}_${webhookIds.length + 1}`;
    webhookIds.push(webhookId);
    const data = {
      ...(type === 'live.transport.incoming' && { type: 'sip' }),
      session_id: call.sessionId,
      sip_headers: call.sipHeaders,
    };
    statuses.push(
      ...(await deliverSignedWebhook({
        url: options.webhookUrl,
        secret: options.secret,
        id: webhookId,
        timestampSeconds: timestamp,
        event: { id: `evt_${webhookId}`, type, data },
        deliveries: options.deliveries,
      })),
    );
  }
  return { sessionId: call.sessionId, webhookIds, statuses };
}

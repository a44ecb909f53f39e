import type { IncomingMessage, ServerResponse } from 'node:http';
import { deepMerge, isPlainObject, type WireSession } from '@parley/openai/wire';
import { callControlError, isSipRejectStatus } from '../shared/call-control.js';
import { type IncomingSipCallWebhook, inviteHeaders } from '../shared/incoming-sip-call.js';
import { deliverSignedWebhook } from '../shared/signed-webhook.js';
import type { SimulatorCall } from './sim-connection.js';
import { answerWebRTCCall, type WebRTCCallPeer } from './sim-webrtc-front.js';

/** What happened to a call on its control endpoints (`/v1/realtime/calls/{id}/…`), in order. */
export type SimulatorCallControl =
  | { action: 'accept'; session: Record<string, unknown> }
  | { action: 'reject'; statusCode: number }
  | { action: 'refer'; targetUri: string }
  | { action: 'hangup' };

/** A call's state as its control endpoints left it. */
export type SimulatorCallState = 'ringing' | 'accepted' | 'rejected' | 'referred' | 'ended';

/** Options of `RealtimeSimulator.incomingSipCall`. */
export type IncomingSipCallOptions = IncomingSipCallWebhook;

/** What the call's webhook deliveries got back. */
export interface IncomingSipCallResult {
  callId: string;
  webhookId: string;
  /** The HTTP status of each delivery. */
  statuses: number[];
}

/** What the call routes need from the simulator. */
export interface CallRoutesHost {
  /** The simulator's calls, by id. */
  readonly calls: Map<string, SimulatorCall>;
  newCall(options: { line: 'webrtc' | 'sip'; session?: Partial<WireSession> | undefined }): SimulatorCall;
  /** Whether the request carries credentials the simulator accepts. */
  authorized(request: IncomingMessage, url: URL): boolean;
  /** The session fields bound to the ephemeral key the request carries (a minted client secret). */
  boundSession(request: IncomingMessage): Partial<WireSession> | undefined;
  /** Opens the simulated session of a WebRTC call on its data channel. */
  attachWebRTC(call: SimulatorCall, front: WebRTCCallPeer, request: IncomingMessage): Promise<void>;
  /** Ends every connection attached to the call (its hang-up). */
  endCall(call: SimulatorCall): void;
}

const ACTIONS = new Set(['accept', 'reject', 'refer', 'hangup']);

const error = callControlError;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The call endpoints of the Realtime service: `POST /v1/realtime/calls` (a WebRTC call's SDP offer) and
 * `POST /v1/realtime/calls/{id}/accept|reject|refer|hangup` (call control). Returns `false` for any other request.
 */
export async function handleCallRequest(
  host: CallRoutesHost,
  request: IncomingMessage,
  res: ServerResponse,
  url: URL,
  basePath: string,
): Promise<boolean> {
  const root = `${basePath}/calls`;
  const path = url.pathname.replace(/\/+$/, '');
  if (request.method !== 'POST' || (path !== root && !path.startsWith(`${root}/`))) return false;
  if (!host.authorized(request, url)) {
    error(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
    return true;
  }
  const body = await readBody(request);
  if (path === root) {
    await offer(host, request, res, body);
    return true;
  }
  const [id, action, ...rest] = path.slice(root.length + 1).split('/');
  const call = id === undefined ? undefined : host.calls.get(decodeURIComponent(id));
  if (!call || action === undefined || !ACTIONS.has(action) || rest.length > 0) {
    error(res, 404, call ? 'Not found' : `No call found with id '${id}'.`);
    return true;
  }
  let parsed: unknown = {};
  try {
    parsed = body ? JSON.parse(body) : {};
  } catch {
    error(res, 400, 'The body is not valid JSON.');
    return true;
  }
  const fields = isPlainObject(parsed) ? parsed : {};
  call.control ??= [];
  const control = call.control;
  switch (action) {
    case 'accept': {
      if (fields.type !== 'realtime') {
        error(
          res,
          400,
          "Missing required parameter: 'type' (must be 'realtime').",
          'missing_required_parameter',
        );
        return true;
      }
      const { type: _type, ...session } = fields;
      call.session = deepMerge(call.session, session) as WireSession;
      call.state = 'accepted';
      control.push({ action: 'accept', session: fields });
      break;
    }
    case 'reject': {
      const statusCode = fields.status_code ?? 603;
      if (!isSipRejectStatus(statusCode)) {
        error(res, 400, 'status_code must be an integer between 300 and 699.', 'invalid_value');
        return true;
      }
      call.state = 'rejected';
      control.push({ action: 'reject', statusCode });
      break;
    }
    case 'refer': {
      if (typeof fields.target_uri !== 'string') {
        error(res, 400, "Missing required parameter: 'target_uri'.", 'missing_required_parameter');
        return true;
      }
      call.state = 'referred';
      control.push({ action: 'refer', targetUri: fields.target_uri });
      host.endCall(call);
      break;
    }
    default:
      call.state = 'ended';
      control.push({ action: 'hangup' });
      host.endCall(call);
  }
  res.writeHead(200);
  res.end();
  return true;
}

async function offer(host: CallRoutesHost, request: IncomingMessage, res: ServerResponse, sdp: string) {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim();
  if (type !== 'application/sdp') {
    error(res, 400, "The SDP offer must be sent with 'Content-Type: application/sdp'.");
    return;
  }
  if (!sdp.startsWith('v=')) {
    error(res, 400, 'The body is not an SDP offer.');
    return;
  }
  let front: WebRTCCallPeer;
  try {
    front = await answerWebRTCCall(sdp);
  } catch (cause) {
    error(res, 400, `The SDP offer could not be answered: ${(cause as Error).message}`);
    return;
  }
  const call = host.newCall({ line: 'webrtc', session: host.boundSession(request) });
  call.state = 'accepted';
  void host.attachWebRTC(call, front, request);
  res.writeHead(201, { 'Content-Type': 'application/sdp', Location: `/v1/realtime/calls/${call.id}` });
  res.end(front.answerSdp);
}

/**
 * A caller dials in: the call is created (ringing, its audio on a simulated phone line) and the signed
 * `realtime.call.incoming` webhook is delivered to the app (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`).
 */
export async function deliverIncomingSipCall(
  host: Pick<CallRoutesHost, 'newCall'>,
  options: IncomingSipCallOptions,
): Promise<IncomingSipCallResult> {
  const call = host.newCall({ line: 'sip' });
  call.state = 'ringing';
  const webhookId = `wh_${call.id}`;
  const timestamp = options.timestampSeconds ?? Math.floor(Date.now() / 1000);
  const sipHeaders = inviteHeaders(options.sipHeaders, call.id);
  const statuses = await deliverSignedWebhook({
    url: options.webhookUrl,
    secret: options.secret,
    id: webhookId,
    timestampSeconds: timestamp,
    event: {
      id: `evt_${call.id}`,
      type: 'realtime.call.incoming',
      data: { call_id: call.id, sip_headers: sipHeaders },
    },
    deliveries: options.deliveries,
  });
  return { callId: call.id, webhookId, statuses };
}

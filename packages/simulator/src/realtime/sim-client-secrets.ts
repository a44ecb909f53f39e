import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPlainObject, type WireSession } from '@parley/openai/wire';

/** An ephemeral key the simulator minted (`POST /v1/realtime/client_secrets`), and the session bound to it. */
export interface SimulatorClientSecret {
  /** The `ek_…` key. */
  readonly value: string;
  /** Unix time (seconds). */
  readonly expiresAt: number;
  /** The session fields the request bound to the key (without `type`); they apply to a session it opens. */
  readonly session: Partial<WireSession>;
}

function refuse(res: ServerResponse, status: number, message: string, code: string | null): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', code, param: null } }));
}

/**
 * `POST {basePath}/client_secrets` as the service answers it: a standard key mints an ephemeral `ek_` key bound to a
 * Realtime session (`session.type: "realtime"`), valid `expires_after.seconds` (10–7200, default 600). Resolves with
 * the minted secret, or `undefined` when the request was refused (the response is sent either way). `bearer` is the
 * request's key when the simulator accepts it.
 */
export async function mintClientSecret(
  request: IncomingMessage,
  res: ServerResponse,
  bearer: string | undefined,
): Promise<SimulatorClientSecret | undefined> {
  if (bearer === undefined) {
    refuse(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
    return undefined;
  }
  if (bearer.startsWith('ek_')) {
    refuse(
      res,
      401,
      'An ephemeral key cannot create client secrets: use a standard API key.',
      'invalid_api_key',
    );
    return undefined;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    refuse(res, 400, 'The body is not valid JSON.', null);
    return undefined;
  }
  const fields = isPlainObject(body) ? body : {};
  const session = isPlainObject(fields.session) ? fields.session : {};
  if (session.type !== 'realtime') {
    refuse(
      res,
      400,
      "Missing required parameter: 'session.type' (must be 'realtime').",
      'missing_required_parameter',
    );
    return undefined;
  }
  const expiresAfter = isPlainObject(fields.expires_after) ? fields.expires_after : {};
  const seconds = expiresAfter.seconds ?? 600;
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 10 || seconds > 7200) {
    refuse(res, 400, 'expires_after.seconds must be an integer between 10 and 7200.', 'invalid_value');
    return undefined;
  }
  const { type: _type, ...bound } = session;
  const secret: SimulatorClientSecret = {
    value: `ek_sim_${randomBytes(12).toString('hex')}`,
    expiresAt: Math.floor(Date.now() / 1000) + seconds,
    session: bound as Partial<WireSession>,
  };
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(
    JSON.stringify({
      value: secret.value,
      expires_at: secret.expiresAt,
      session: { type: 'realtime', object: 'realtime.session', model: 'gpt-realtime', ...bound },
    }),
  );
  return secret;
}

import { ParleyError, UserError } from '@parley/core';
import { brand, optionKeys } from '@parley/core/internal';
import { assertApiKeyShape } from '../shared/api-key.js';
import { authenticatedPost } from '../shared/authenticated-post.js';
import { endpointURL } from '../shared/base-url.js';
import type { WireSession } from '../shared/realtime-wire.js';
import { redactError } from '../shared/redact.js';

/** Options of {@link createClientSecret}. */
export interface CreateClientSecretOptions {
  /** A standard API key; stays on your server. */
  apiKey: string;
  /** The session the key will open (`type` defaults to `realtime`, `model` to `gpt-realtime`). */
  session?: Partial<WireSession>;
  /** Lifetime of the key in seconds (10–7200). Default: the service's (600). */
  expiresAfterSeconds?: number;
  /** The API root; `POST {baseURL}/realtime/client_secrets` is called. Default `https://api.openai.com/v1`. */
  baseURL?: string;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Aborts the request. */
  signal?: AbortSignal;
}

const SECRET_OPTIONS = optionKeys<CreateClientSecretOptions>('CreateClientSecretOptions', {
  apiKey: true,
  session: true,
  expiresAfterSeconds: true,
  baseURL: true,
  fetch: true,
  signal: true,
});

/** An ephemeral key for a browser client. */
export interface ClientSecret {
  /** The `ek_…` key, for `new OpenAIRealtimeModel({ apiKey })` in the browser. */
  value: string;
  /** Unix time (seconds) after which no new session can be opened with it. */
  expiresAt: number;
  /** The session configuration bound to the key, as the service returned it. */
  session: WireSession | undefined;
}

/** The service refused to create a client secret. */
export class ClientSecretError extends ParleyError {
  static {
    brand(ClientSecretError, 'openai.ClientSecretError');
  }

  /** HTTP status. */
  readonly status: number;
  /** The `x-request-id` header, for support requests. */
  readonly requestId: string | undefined;

  constructor(status: number, message: string, requestId: string | undefined) {
    super('client_secret_failed', message);
    this.status = status;
    this.requestId = requestId;
  }
}

/**
 * Mints an ephemeral Realtime key (`POST /v1/realtime/client_secrets`) on your server, for a browser client that
 * must never see the real API key.
 */
export async function createClientSecret(options: CreateClientSecretOptions): Promise<ClientSecret> {
  if (typeof options === 'object' && options !== null) SECRET_OPTIONS.check(options);
  assertApiKeyShape(options?.apiKey, 'apiKey');
  const { apiKey, expiresAfterSeconds } = options;
  if (
    expiresAfterSeconds !== undefined &&
    (!Number.isInteger(expiresAfterSeconds) || expiresAfterSeconds < 10 || expiresAfterSeconds > 7200)
  ) {
    throw new UserError('expiresAfterSeconds must be an integer between 10 and 7200.', {
      code: 'invalid_option',
    });
  }
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function') {
    throw new UserError('No fetch available: pass the fetch option.', { code: 'invalid_option' });
  }
  const url = endpointURL(options.baseURL, '/realtime/client_secrets');
  const body = {
    ...(expiresAfterSeconds !== undefined && {
      expires_after: { anchor: 'created_at', seconds: expiresAfterSeconds },
    }),
    session: { type: 'realtime', model: 'gpt-realtime', ...options.session },
  };
  const answer = await authenticatedPost({
    url,
    key: apiKey,
    body: { json: body },
    service: 'the OpenAI API',
    fetch: fetchFn,
    signal: options.signal,
  });
  const requestId = answer.headers.get('x-request-id') ?? undefined;
  if (!answer.ok) {
    const detail = answer.errorMessage === undefined ? '' : `: ${answer.errorMessage}`;
    throw redactError(
      new ClientSecretError(
        answer.status,
        `Creating a Realtime client secret failed with HTTP ${answer.status}${detail}`,
        requestId,
      ),
      [apiKey],
    );
  }
  const secret = answer.json as { value?: unknown; expires_at?: unknown; session?: unknown } | undefined;
  if (typeof secret?.value !== 'string' || typeof secret.expires_at !== 'number') {
    throw redactError(
      new ClientSecretError(
        answer.status,
        'The client secret response had no "value" / "expires_at".',
        requestId,
      ),
      [apiKey],
    );
  }
  return {
    value: secret.value,
    expiresAt: secret.expires_at,
    session: (secret.session ?? undefined) as WireSession | undefined,
  };
}

/** The WebSocket origin of an endpoint: `https:` → `wss:`, `http:` (a local server) → `ws:`. */
function webSocketBase(base: URL): string {
  const url = new URL(base.href);
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
  return url.href.replace(/\/+$/, '');
}

/**
 * The Realtime URL: the GA form `…/openai/v1/realtime?model={deployment}`, or, when an `apiVersion` is given, the
 * legacy preview form `…/openai/realtime?api-version={apiVersion}&deployment={deployment}`.
 */
export function realtimeURL(base: URL, deployment: string, apiVersion?: string): URL {
  const root = webSocketBase(base);
  if (apiVersion === undefined) {
    const url = new URL(`${root}/openai/v1/realtime`);
    url.searchParams.set('model', deployment);
    return url;
  }
  const url = new URL(`${root}/openai/realtime`);
  url.searchParams.set('api-version', apiVersion);
  url.searchParams.set('deployment', deployment);
  return url;
}

/** The Responses API root of the v1 API (`…/openai/v1`); the deployment goes in the request's `model`. */
export function responsesBaseURL(base: URL): string {
  return `${base.href.replace(/\/+$/, '')}/openai/v1`;
}

/**
 * The GPT-Live primary WebSocket of a Foundry resource: `…/openai/v1/live/sessions`, no query string (the deployment
 * goes in `session.start`).
 */
export function liveURL(base: URL): URL {
  return new URL(`${webSocketBase(base)}/openai/v1/live/sessions`);
}

import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A browser starts a WebRTC call by POSTing its offer from the app's page (another origin) with an `Authorization`
 * header: the service's calls endpoint allows it (a preflight, then the answer with its `Location` readable). Adds
 * those headers to `res`; answers a preflight (`OPTIONS`) itself and returns `true` then.
 */
export function allowBrowserCall(request: IncomingMessage, res: ServerResponse): boolean {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'Location, x-request-id');
  if (request.method !== 'OPTIONS') return false;
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type',
    'Access-Control-Max-Age': '600',
  });
  res.end();
  return true;
}

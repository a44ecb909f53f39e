import type { ServerResponse } from 'node:http';

/** Answers a call control request with the service's error body. */
export function callControlError(
  res: ServerResponse,
  status: number,
  message: string,
  code: string | null = null,
): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', code } }));
}

/** A SIP final status a call may be rejected with: an integer from 300 to 699. */
export function isSipRejectStatus(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 300 && value <= 699;
}

/** A refer request's `target_uri`; without one, answers the service's error and returns `undefined`. */
export function referTarget(res: ServerResponse, fields: Record<string, unknown>): string | undefined {
  if (typeof fields.target_uri === 'string') return fields.target_uri;
  callControlError(res, 400, "Missing required parameter: 'target_uri'.", 'missing_required_parameter');
  return undefined;
}

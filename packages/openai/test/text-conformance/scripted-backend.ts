import type { TextHarnessOutput, TextHarnessResponse } from '@parley/conformance';
import { HttpResponse, http } from 'msw';
import type { SetupServer } from 'msw/node';

/** A model output with the call ids a backend assigns filled in. */
export type AssignedOutput =
  | { type: 'message'; text: string }
  | { type: 'function_call'; name: string; arguments: string; callId: string };

/** The pieces a streamed text arrives in: word by word. */
export function pieces(text: string): string[] {
  return text.split(/(?<= )/);
}

/**
 * An msw endpoint that answers each POST with the next scripted {@link TextHarnessResponse} (an HTTP error, a
 * request left pending, or an answer rendered by `render`) and keeps every request body.
 */
export function scriptedEndpoint(
  server: SetupServer,
  url: string,
  render: (
    output: AssignedOutput[],
    usage: { inputTokens: number; outputTokens: number },
    streamed: boolean,
  ) => Response,
) {
  const queue: TextHarnessResponse[] = [];
  const bodies: Record<string, unknown>[] = [];
  let calls = 0;
  const assign = (item: TextHarnessOutput): AssignedOutput =>
    item.type === 'message'
      ? item
      : {
          type: 'function_call',
          name: item.name,
          arguments: JSON.stringify(item.arguments),
          callId: item.callId ?? `call_${++calls}`,
        };
  server.use(
    http.post(url, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push(body);
      const next = queue.shift();
      if (!next) return HttpResponse.json({ error: { message: 'no scripted response' } }, { status: 418 });
      if ('hang' in next) return new Promise<Response>(() => {});
      if ('error' in next) {
        return HttpResponse.json(
          { error: { message: next.error.message, type: 'invalid_request_error', param: null, code: null } },
          { status: next.error.status, headers: { 'x-request-id': 'req_conformance' } },
        );
      }
      return render(
        next.output.map(assign),
        next.usage ?? { inputTokens: 10, outputTokens: 5 },
        body.stream === true,
      );
    }),
  );
  return {
    bodies,
    respondWith: (...responses: TextHarnessResponse[]) => void queue.push(...responses),
  };
}

/** A `text/event-stream` response of `data:` lines (with `event:` names when given). */
export function sse(events: { event?: string; data: unknown }[]): Response {
  const text = events
    .map(
      ({ event, data }) =>
        `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    )
    .join('');
  return new HttpResponse(text, {
    headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_conformance' },
  });
}

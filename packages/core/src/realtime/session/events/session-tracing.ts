import { TRACED_ENDED_RESPONSES_LIMIT } from '../../../constants.js';
import type { RunContext } from '../../../context.js';
import { startSpan, type TraceSpan, tracingEnabled } from '../../../tracing.js';
import type { RealtimeSessionEvent } from './events.js';

type Event<TContext> = RealtimeSessionEvent<TContext>;
type Of<TContext, K extends Event<TContext>['type']> = Extract<Event<TContext>, { type: K }>;

interface EventSource<TContext> {
  on(type: Event<TContext>['type'], listener: (event: Event<TContext>) => void): () => void;
}

/** The open tool-call spans of each traced session, by its run context. */
const toolSpans = new WeakMap<RunContext<unknown>, Map<string, TraceSpan>>();

/** The span of a session's tool call while it runs (what an agent tool's run hangs under), if traced. */
export function sessionToolSpan(context: RunContext<unknown>, callId: string): TraceSpan | undefined {
  return toolSpans.get(context)?.get(callId);
}

/**
 * Spans of a realtime session, built from the session's own events (nothing on the audio path): a session span
 * from the first connect to close, with a span per response, tool call, interruption (with the heard position)
 * and reconnect. Subscribes only when tracing is on when the session is created.
 */
export function traceSession<TContext>(
  events: EventSource<TContext>,
  provider: string,
  context: RunContext<TContext>,
): void {
  if (!tracingEnabled()) return;
  let session: TraceSpan | undefined;
  let reconnect: TraceSpan | undefined;
  const responses = new Map<string, TraceSpan>();
  const tools = new Map<string, TraceSpan>();
  toolSpans.set(context as RunContext<unknown>, tools);
  /** Recently ended responses: their tool calls run after the response is done and still hang under it. */
  const ended = new Map<string, TraceSpan>();
  const on = <K extends Event<TContext>['type']>(type: K, listener: (event: Of<TContext, K>) => void) =>
    events.on(type, listener as (event: Event<TContext>) => void);
  const parentOf = (responseId: string | undefined) =>
    (responseId === undefined ? undefined : (responses.get(responseId) ?? ended.get(responseId))) ?? session;

  on('connection_status', ({ status, reason }) => {
    if (status === 'connecting') {
      session ??= startSpan('parley.realtime.session', { 'gen_ai.system': provider });
      return;
    }
    if (status === 'connected') return;
    if (reconnect) {
      reconnect.fail(new Error(`The session could not reconnect (${reason ?? status}).`));
      reconnect.set({ 'error.type': 'reconnect_failed' });
      reconnect.end();
      reconnect = undefined;
    }
    if (status !== 'closed') return;
    for (const span of [...tools.values(), ...responses.values()]) span.end();
    tools.clear();
    responses.clear();
    ended.clear();
    session?.end();
    session = undefined;
  });
  on('response_started', ({ responseId, agent, ephemeral }) => {
    responses.set(
      responseId,
      startSpan(
        'realtime.response',
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.system': provider,
          'gen_ai.response.id': responseId,
          'gen_ai.agent.name': agent.name,
          'parley.response.ephemeral': ephemeral,
        },
        session,
      ),
    );
  });
  on('response_done', ({ responseId, status, usage }) => {
    const span = responses.get(responseId);
    if (!span) return;
    responses.delete(responseId);
    span.set({ 'parley.response.status': status });
    if (usage) {
      span.set({
        'gen_ai.usage.input_tokens': usage.inputTokens,
        'gen_ai.usage.output_tokens': usage.outputTokens,
      });
    }
    if (status === 'failed') span.set({ 'error.type': 'response_failed' });
    span.end();
    ended.set(responseId, span);
    if (ended.size > TRACED_ENDED_RESPONSES_LIMIT) ended.delete(ended.keys().next().value as string);
  });
  on('tool_started', ({ callId, name, responseId, agent, delegationId }) => {
    // A delegate's call is traced by its own run.
    if (delegationId !== undefined) return;
    tools.get(callId)?.end();
    tools.set(
      callId,
      startSpan(
        `execute_tool ${name}`,
        {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': name,
          'gen_ai.tool.call.id': callId,
          'gen_ai.tool.type': 'function',
          'gen_ai.agent.name': agent.name,
          'gen_ai.response.id': responseId,
        },
        parentOf(responseId),
      ),
    );
  });
  on('tool_done', ({ callId, status }) => {
    const span = tools.get(callId);
    if (!span) return;
    tools.delete(callId);
    span.set({ 'parley.tool.status': status });
    if (status !== 'completed') span.set({ 'error.type': status });
    span.end();
  });
  on('audio_interrupted', ({ responseId, itemId, heardMs }) => {
    startSpan(
      'parley.interruption',
      {
        'gen_ai.response.id': responseId,
        'parley.interruption.item_id': itemId,
        'parley.interruption.heard_ms': heardMs,
      },
      parentOf(responseId),
    ).end();
  });
  on('reconnecting', ({ reason, attempt, delayMs }) => {
    reconnect ??= startSpan('parley.reconnect', { 'parley.reconnect.reason': reason }, session);
    reconnect.event('attempt', { 'parley.reconnect.attempt': attempt, 'parley.reconnect.delay_ms': delayMs });
  });
  on('reconnected', ({ attempt, replayedItems }) => {
    reconnect?.set({
      'parley.reconnect.attempts': attempt,
      'parley.reconnect.replayed_items': replayedItems,
    });
    reconnect?.end();
    reconnect = undefined;
  });
}

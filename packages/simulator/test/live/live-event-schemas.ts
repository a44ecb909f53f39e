import { z } from 'zod';

/**
 * Runtime schemas of the GPT-Live server events, written from the official `openai` package's types (7.57.0,
 * `resources/live/live.d.ts` and `sideband/sideband.d.ts`): strict, so a field the SDK does not declare fails too.
 * A test parses every event the simulator sends with these.
 */

const base = { event_id: z.string(), client_event_id: z.string().optional() };
const span = { start_ms: z.number(), end_ms: z.number() };
const format = z.union([
  z.strictObject({ type: z.literal('audio/pcm'), rate: z.union([z.literal(16000), z.literal(24000)]) }),
  z.strictObject({ type: z.literal('audio/pcmu'), rate: z.number() }),
  z.strictObject({ type: z.literal('audio/pcma'), rate: z.number() }),
]);
const delegation = z.union([
  z.strictObject({ type: z.literal('client'), acknowledgement_delay_ms: z.number().optional() }),
  z.strictObject({
    type: z.literal('responses'),
    responses: z.looseObject({ model: z.string() }),
    acknowledgement_delay_ms: z.number().optional(),
  }),
  z.strictObject({
    type: z.literal('decisions'),
    decisions: z.looseObject({ model: z.string() }),
    acknowledgement_delay_ms: z.number().optional(),
  }),
]);
const session = z.strictObject({
  id: z.string(),
  expires_at: z.number(),
  model: z.string(),
  status: z.literal('active'),
  audio: z
    .strictObject({
      format: format.optional(),
      output: z
        .strictObject({ voice: z.union([z.string(), z.strictObject({ id: z.string() })]).optional() })
        .optional(),
    })
    .optional(),
  client: z.looseObject({ data_channel: z.looseObject({}) }).optional(),
  delegation: delegation.nullable().optional(),
  input: z
    .array(z.looseObject({ role: z.string(), content: z.array(z.looseObject({ text: z.string() })) }))
    .optional(),
  instructions: z.string().nullable().optional(),
  store: z.boolean().optional(),
  triggers: z.array(z.unknown()).optional(),
});
const usage = z.strictObject({ seconds: z.number() });

export const liveServerEventSchemas: Record<string, z.ZodType> = {
  'session.started': z.strictObject({ ...base, type: z.literal('session.started'), session }),
  'session.updated': z.strictObject({ ...base, type: z.literal('session.updated'), session }),
  'session.input_audio.muted': z.strictObject({ ...base, type: z.literal('session.input_audio.muted') }),
  'session.input_audio.unmuted': z.strictObject({ ...base, type: z.literal('session.input_audio.unmuted') }),
  'session.output_audio.fixture.playing': z.strictObject({
    ...base,
    type: z.literal('session.output_audio.fixture.playing'),
  }),
  'session.output_audio.fixture.played': z.strictObject({
    ...base,
    type: z.literal('session.output_audio.fixture.played'),
  }),
  'session.instructions.appended': z.strictObject({
    ...base,
    ...span,
    type: z.literal('session.instructions.appended'),
  }),
  'session.thinking.appended': z.strictObject({
    ...base,
    ...span,
    type: z.literal('session.thinking.appended'),
  }),
  'session.commentary.appended': z.strictObject({
    ...base,
    ...span,
    type: z.literal('session.commentary.appended'),
  }),
  'session.input_audio.append': z.strictObject({
    type: z.literal('session.input_audio.append'),
    audio: z.base64(),
  }),
  'session.output_audio.delta': z.strictObject({
    type: z.literal('session.output_audio.delta'),
    delta: z.base64(),
    start_ms: z.number().optional(),
    end_ms: z.number().optional(),
  }),
  'session.input_transcript.delta': z.strictObject({
    ...base,
    ...span,
    type: z.literal('session.input_transcript.delta'),
    delta: z.string(),
  }),
  'session.output_transcript.delta': z.strictObject({
    ...base,
    ...span,
    type: z.literal('session.output_transcript.delta'),
    delta: z.string(),
  }),
  'session.delegation.created': z.strictObject({
    ...base,
    type: z.literal('session.delegation.created'),
    offset_ms: z.number(),
    delegation: z.strictObject({
      id: z.string(),
      type: z.literal('delegation'),
      target: z.enum(['client', 'responses', 'decisions']),
      response_id: z.string().optional(),
    }),
  }),
  'decision.item.created': z.strictObject({
    ...base,
    type: z.literal('decision.item.created'),
    item: z.looseObject({ id: z.string() }),
  }),
  'decision.item.deleted': z.strictObject({
    ...base,
    type: z.literal('decision.item.deleted'),
    item_id: z.string(),
  }),
  'response.event': z.strictObject({
    ...base,
    type: z.literal('response.event'),
    event: z.looseObject({ type: z.string() }),
    delegation_id: z.string().nullable().optional(),
  }),
  'session.usage.updated': z.strictObject({
    ...base,
    type: z.literal('session.usage.updated'),
    usage,
    context_window: z.strictObject({ usage_ratio: z.number() }).optional(),
  }),
  'session.closed': z.strictObject({
    ...base,
    type: z.literal('session.closed'),
    reason: z.enum(['close_requested', 'expired', 'content', 'remote_hangup', 'connection_lost']),
    session,
    usage,
  }),
  error: z.strictObject({
    ...base,
    type: z.literal('error'),
    error: z.strictObject({
      code: z.string(),
      message: z.string(),
      type: z.string(),
      client_event_id: z.string().optional(),
      param: z.string().optional(),
    }),
  }),
  info: z.strictObject({ ...base, type: z.literal('info'), code: z.string(), message: z.string() }),
};

/** Throws unless `event` is one of the SDK's server events with exactly its fields. */
export function assertLiveServerEvent(event: unknown): void {
  const type = (event as { type?: unknown }).type;
  const schema = typeof type === 'string' ? liveServerEventSchemas[type] : undefined;
  if (!schema) throw new Error(`Not a GPT-Live server event type: ${String(type)}`);
  schema.parse(event);
}

import type {
  LiveClientContent,
  LiveClientRealtimeInput,
  LiveClientSetup,
  LiveClientToolResponse,
  LiveServerContent,
  LiveServerGoAway,
  LiveServerSessionResumptionUpdate,
  LiveServerSetupComplete,
  LiveServerToolCall,
  LiveServerToolCallCancellation,
  UsageMetadata,
} from '@google/genai';
import { describe, expectTypeOf, it } from 'vitest';
import {
  durationMs,
  durationString,
  type GeminiClientContent,
  type GeminiRealtimeInput,
  type GeminiServerMessage,
  type GeminiSetup,
  type GeminiToolResponse,
} from '../src/index.js';

/** A type as JSON carries it: the SDK's string enums become their string values. */
type Wire<T> = T extends string
  ? `${T}`
  : T extends (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/**
 * The wire catalogue against `@google/genai`'s own types (checked by `pnpm typecheck`): every message Parley writes
 * is one the SDK's client could write, and every server message field Parley reads has the SDK's type.
 */
describe('the Gemini Live wire catalogue', () => {
  it('client messages are assignable to the SDK types', () => {
    expectTypeOf<GeminiSetup>().toExtend<Wire<LiveClientSetup>>();
    expectTypeOf<GeminiClientContent>().toExtend<Wire<LiveClientContent>>();
    expectTypeOf<GeminiRealtimeInput>().toExtend<Wire<LiveClientRealtimeInput>>();
    expectTypeOf<GeminiToolResponse>().toExtend<Wire<LiveClientToolResponse>>();
  });

  it('server message fields are assignable to the SDK types', () => {
    type Field<K extends keyof GeminiServerMessage> = NonNullable<GeminiServerMessage[K]>;
    expectTypeOf<Field<'setupComplete'>>().toExtend<Wire<LiveServerSetupComplete>>();
    expectTypeOf<Field<'serverContent'>>().toExtend<Wire<LiveServerContent>>();
    expectTypeOf<Field<'toolCall'>>().toExtend<Wire<LiveServerToolCall>>();
    expectTypeOf<Field<'toolCallCancellation'>>().toExtend<Wire<LiveServerToolCallCancellation>>();
    expectTypeOf<Field<'usageMetadata'>>().toExtend<Wire<UsageMetadata>>();
    expectTypeOf<Field<'goAway'>>().toExtend<Wire<LiveServerGoAway>>();
    expectTypeOf<Field<'sessionResumptionUpdate'>>().toExtend<Wire<LiveServerSessionResumptionUpdate>>();
  });

  it('reads and writes wire durations', ({ expect }) => {
    expect(durationMs('10s')).toBe(10_000);
    expect(durationMs('2.5s')).toBe(2500);
    expect(durationMs('soon')).toBeUndefined();
    expect(durationString(1500)).toBe('1.5s');
  });
});

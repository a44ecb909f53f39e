/**
 * @deprecated The OpenAI Realtime and GPT-Live simulators moved to `@parley/simulator` (same names), the wire
 * catalogues (`WireServerEvent`, `LiveServerEvent`, `WIRE_SERVER_EVENT_TYPES`, …) to `@parley/openai/wire`: import
 * them from there. This entry re-exports both and needs `@parley/simulator` installed beside `@parley/openai`.
 */

export * from '@parley/openai/wire';
export * from '@parley/simulator';

/**
 * @deprecated The OpenAI Realtime and GPT-Live simulators moved to `@parley/simulator` (same names): import them
 * from there. This entry re-exports `@parley/simulator` and needs it installed beside `@parley/openai`.
 */
export * from '@parley/simulator';

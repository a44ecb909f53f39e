/**
 * @deprecated The Gemini Live simulator moved to `@parley/simulator` (same names): import it from there. This entry
 * re-exports `@parley/simulator` and needs it installed beside `@parley/google`.
 */
export * from '@parley/simulator';

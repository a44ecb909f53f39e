// Deprecated: the Gemini Live simulator moved to @parley/simulator (same names). This entry re-exports it; install
// @parley/simulator beside @parley/google to use it.
export * from '@parley/simulator';

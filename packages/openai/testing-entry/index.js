// Deprecated: the simulators moved to @parley/simulator (same names). This entry re-exports it; install
// @parley/simulator beside @parley/openai to use it.
export * from '@parley/simulator';

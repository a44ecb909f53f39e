// Deprecated: the simulators moved to @parley/simulator (same names), the wire catalogues to @parley/openai/wire.
// This entry re-exports both; install @parley/simulator beside @parley/openai to use it.

export * from '@parley/openai/wire';
export * from '@parley/simulator';

/**
 * `@parley/transport/testing`: the fault hooks a conformance harness injects into an adapter's socket (a socket that
 * stops without a word, a write that fails).
 */

export { type HarnessTransport, TransportFaults } from './transport-faults.js';

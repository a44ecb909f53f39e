export { type EchoedMark, SimulatedCaller, type SimulatedCallerOptions } from './simulated-caller.js';

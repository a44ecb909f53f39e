export { type DemoSummary, runSupportDemo } from './demo/run-demo.js';
export { main } from './main.js';
export type { Output } from './output.js';

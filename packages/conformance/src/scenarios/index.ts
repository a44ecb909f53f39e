import type { ConformanceScenario } from '../scenario.js';
import { approvalScenario } from './approval.js';
import { audioReplyScenario } from './audio-reply.js';
import { disconnectScenario } from './disconnect.js';
import { handoffScenario } from './handoff.js';
import { lifecycleScenario } from './lifecycle.js';
import { parallelToolsAfterEndScenario, parallelToolsBeforeEndScenario } from './parallel-tools.js';
import { providerErrorScenario } from './provider-error.js';
import { generateReplyScenario, textReplyScenario } from './text-reply.js';
import { toolCallScenario } from './tool-call.js';
import { userSpeechScenario } from './user-speech.js';

/** Every realtime scenario, in the order the suite runs them. */
export const realtimeScenarios: readonly ConformanceScenario[] = [
  lifecycleScenario,
  textReplyScenario,
  generateReplyScenario,
  audioReplyScenario,
  toolCallScenario,
  parallelToolsAfterEndScenario,
  parallelToolsBeforeEndScenario,
  approvalScenario,
  handoffScenario,
  providerErrorScenario,
  disconnectScenario,
  userSpeechScenario,
];

export {
  approvalScenario,
  audioReplyScenario,
  disconnectScenario,
  generateReplyScenario,
  handoffScenario,
  lifecycleScenario,
  parallelToolsAfterEndScenario,
  parallelToolsBeforeEndScenario,
  providerErrorScenario,
  textReplyScenario,
  toolCallScenario,
  userSpeechScenario,
};

import type { RealtimeContentPartV1 } from './realtime-content-part-v1.js';

/** A conversation item as the seam sees it. */
export type RealtimeItemV1 =
  | {
      type: 'message';
      itemId: string;
      role: 'user' | 'assistant' | 'system';
      content: RealtimeContentPartV1[];
      status?: 'in_progress' | 'completed' | 'incomplete';
    }
  | { type: 'function_call'; itemId: string; callId: string; name: string; arguments: string }
  | { type: 'function_call_output'; itemId: string; callId: string; output: string };

import type { WireItem, WireTool, WireToolChoice } from '@parley/openai/wire';
import type { BrainHostedApproval, BrainHostedCall } from './sim-mcp.js';

/**
 * A point where a simulated response stops streaming until the test releases it, so a test can interleave a
 * cancel, a truncate or a barge-in at an exact position without timers. Create one with {@link createHold}.
 */
export interface Hold {
  readonly label: string | undefined;
  /**
   * Resolves when a response reaches this hold: everything before it has been handed to the socket (the client
   * may still be receiving it; await the client-side event, or read the connection's `serverEvents`).
   */
  readonly reached: Promise<void>;
  readonly isReached: boolean;
  readonly isReleased: boolean;
  /** Lets the response continue. A cancelled response does not continue, released or not. */
  release(): void;
}

interface HoldInternals extends Hold {
  /** Marks the hold reached and resolves when it is released. */
  arrive(): Promise<void>;
}

/** Creates a {@link Hold}: put it in a brain response (`{ type: 'hold', hold }` or inside a message's text). */
export function createHold(label?: string): Hold {
  let markReached!: () => void;
  let markReleased!: () => void;
  const reached = new Promise<void>((resolve) => {
    markReached = resolve;
  });
  const released = new Promise<void>((resolve) => {
    markReleased = resolve;
  });
  const hold: HoldInternals = {
    label,
    reached,
    isReached: false,
    isReleased: false,
    release() {
      (hold as { isReleased: boolean }).isReleased = true;
      markReleased();
    },
    arrive() {
      (hold as { isReached: boolean }).isReached = true;
      markReached();
      return released;
    },
  };
  return hold;
}

/** @internal Waits at a hold. */
export function arriveAt(hold: Hold): Promise<void> {
  return (hold as HoldInternals).arrive();
}

/** `true` for values made by {@link createHold}. */
export function isHold(value: unknown): value is Hold {
  return typeof value === 'object' && value !== null && typeof (value as HoldInternals).arrive === 'function';
}

/** One thing a simulated response does. */
export type BrainOutput =
  /** An assistant message, spoken (audio + transcript) or written per the response's output modalities. A hold
   * inside `text` pauses the stream at that point, after the audio for the text before it was sent. */
  | {
      type: 'message';
      text: string | readonly (string | Hold)[];
      /** Total length of the spoken audio; default the simulator's `msPerChar` per character. */
      audioMs?: number;
      /**
       * `false`: speak without transcript deltas (as a service whose output transcription lags behind the audio);
       * the final `response.output_audio_transcript.done` still carries the text. Default `true`.
       */
      transcriptDeltas?: boolean;
      /**
       * The service sends the item's `conversation.item.added` (empty, `in_progress`) before the
       * `response.output_item.added` that links it to the response, in an out-of-band response too (which otherwise
       * gets none; the item stays out of the conversation all the same). The protocol leaves the order open; a
       * client must keep an out-of-band item out of its history whichever comes first.
       */
      announceEarly?: boolean;
    }
  /** A function call; `arguments` objects are serialized as JSON. */
  | {
      type: 'function_call';
      name: string;
      arguments?: string | Record<string, unknown>;
      callId?: string;
      /** `conversation.item.added` before `response.output_item.added`, as for a message. */
      announceEarly?: boolean;
    }
  /**
   * A call of a tool of the session's `mcp` server labelled `server` (the simulator's `mcpServers` entry for its
   * `server_url`). Where `require_approval` asks for it, the response ends with an `mcp_approval_request` (the rest of
   * the outputs are dropped) and the call runs at the start of the next response once approved. Otherwise it runs at
   * once and the brain is asked again, with the call in `hostedCalls`, for the rest of the response.
   */
  | {
      type: 'mcp_call';
      server: string;
      name: string;
      arguments?: string | Record<string, unknown>;
    }
  /** Pauses the response here (before the next output) until the hold is released. */
  | { type: 'hold'; hold: Hold }
  /** Ends the response with `status: 'failed'` (e.g. `inference_rate_limit_exceeded`). */
  | { type: 'fail'; code?: string; message?: string };

/** What a brain returns: a plain string is one message (also inside a list). */
export type BrainResponse = string | BrainOutput | readonly (BrainOutput | string)[];

/** A message of the context, flattened to text (user audio counts as the words embedded by `speechAudio`). */
export interface BrainMessage {
  itemId: string;
  role: 'user' | 'assistant' | 'system';
  text: string;
}

/** What the brain knows when a response starts. */
export interface BrainTurn {
  connectionId: string;
  responseId: string;
  /** `'none'` for an out-of-band response. */
  conversation: 'default' | 'none';
  /** `'vad'` when server VAD started the response at the end of the user's speech. */
  trigger: 'client' | 'vad';
  /** The context the response sees (the default conversation, or the response's `input`), as wire items. */
  items: readonly WireItem[];
  /** The messages of `items` as text. */
  messages: readonly BrainMessage[];
  /** The text of the last user message, if any. */
  lastUserText: string | undefined;
  /** `function_call_output` items after the last user message. */
  toolOutputs: readonly { callId: string; output: string }[];
  /** Hosted MCP calls after the last user message, with their output or error. */
  hostedCalls: readonly BrainHostedCall[];
  /** Decisions on hosted MCP approval requests after the last user message. */
  hostedApprovals: readonly BrainHostedApproval[];
  instructions: string;
  tools: readonly WireTool[];
  toolChoice: WireToolChoice;
  outputModalities: readonly ('text' | 'audio')[];
  metadata: Readonly<Record<string, string>> | null;
}

/** Decides what the simulated model says or calls. May be async (the response is active meanwhile). */
export type RealtimeBrain = (turn: BrainTurn) => BrainResponse | Promise<BrainResponse>;

/**
 * The default brain: after tool outputs it reports them (`The tool said: …`), after hosted MCP calls theirs
 * (`The server said: …`), after rejected MCP approvals says so (`I was not allowed to call …`); otherwise it echoes
 * the last user message (`You said: …`), or says `Hello.` when there is none.
 */
export const echoBrain: RealtimeBrain = (turn) => {
  if (turn.toolOutputs.length > 0)
    return `The tool said: ${turn.toolOutputs.map((t) => t.output).join('; ')}`;
  if (turn.hostedCalls.length > 0)
    return `The server said: ${turn.hostedCalls.map((c) => c.output ?? c.error ?? '').join('; ')}`;
  const rejected = turn.hostedApprovals.filter((a) => !a.approved);
  if (rejected.length > 0) return `I was not allowed to call ${rejected.map((a) => a.name).join(', ')}.`;
  return turn.lastUserText === undefined ? 'Hello.' : `You said: ${turn.lastUserText}`;
};

/**
 * A brain that answers with `responses` in order (one per response, any connection), then with `fallback`
 * (default {@link echoBrain}). A function entry is called with the turn.
 */
export function scriptedBrain(
  responses: readonly (BrainResponse | RealtimeBrain)[],
  fallback: RealtimeBrain = echoBrain,
): RealtimeBrain {
  const queue = [...responses];
  return (turn) => {
    const next = queue.shift();
    if (next === undefined) return fallback(turn);
    return typeof next === 'function' ? (next as RealtimeBrain)(turn) : next;
  };
}

import type { RealtimeToolCallStatus } from '../events/events.js';

/** A call's output that could not be sent: kept to be sent when the provider delivers the call again. */
export interface UnsentToolOutput {
  output: string;
  /** The output reports an error. */
  failed: boolean;
  /** The output asks for no response (a `backgroundResult`). */
  background: boolean;
  /** The call's outcome, for its `tool_done` (none for a handoff or an unknown tool, which report no `tool_done`). */
  status?: RealtimeToolCallStatus;
  /** What the tool threw, for its `tool_done` (`failed` and `error` outcomes). */
  failure?: { error: unknown };
}

/** What {@link ToolCallLedger.admit} decided about a function call. */
export type ToolCallAdmission =
  /** A call id never seen in this session: run it. */
  | { kind: 'new' }
  /** The same call (same id, name and arguments) again: it already ran or runs; do nothing. */
  | { kind: 'repeat' }
  /** The same call again, whose output could not be sent: send that output, without running the tool. */
  | { kind: 'resend'; unsent: UnsentToolOutput }
  /** A known call id with another name or other arguments: never run, report it. */
  | { kind: 'conflict'; first: { name: string; arguments: string } }
  /** The provider cancelled this call id before delivering it: never run. */
  | { kind: 'cancelled' };

interface Entry {
  name: string;
  arguments: string;
  unsent?: UnsentToolOutput;
}

/**
 * The session's record of every function call id it has admitted, for the session's whole life (across
 * responses and reconnects): a call id runs at most once, whatever the provider re-sends. Providers may
 * de-duplicate too; the session does not rely on it. A call whose output could not be sent keeps that output
 * until the provider delivers the call again.
 */
export class ToolCallLedger {
  /** Created on the first call: an idle session holds none. */
  #calls: Map<string, Entry> | undefined;
  /** Call ids the provider cancelled before it delivered them. */
  #cancelledUnseen: Set<string> | undefined;

  admit(call: { callId: string; name: string; arguments: string }): ToolCallAdmission {
    if (this.#cancelledUnseen?.delete(call.callId)) {
      this.#calls ??= new Map();
      this.#calls.set(call.callId, { name: call.name, arguments: call.arguments });
      return { kind: 'cancelled' };
    }
    const first = this.#calls?.get(call.callId);
    if (!first) {
      this.#calls ??= new Map();
      this.#calls.set(call.callId, { name: call.name, arguments: call.arguments });
      return { kind: 'new' };
    }
    if (first.name !== call.name || first.arguments !== call.arguments) {
      return { kind: 'conflict', first: { name: first.name, arguments: first.arguments } };
    }
    const unsent = first.unsent;
    if (!unsent) return { kind: 'repeat' };
    first.unsent = undefined;
    return { kind: 'resend', unsent };
  }

  /** The output of admitted call `callId` could not be sent: keep it for a delivery of the call again. */
  notSent(callId: string, unsent: UnsentToolOutput): void {
    const entry = this.#calls?.get(callId);
    if (entry) entry.unsent = unsent;
  }

  /**
   * The provider cancelled `callId`. `true` when the call was admitted before; otherwise it is remembered, so the
   * call is never run when it arrives later.
   */
  cancel(callId: string): boolean {
    if (this.#calls?.has(callId)) return true;
    this.#cancelledUnseen ??= new Set();
    this.#cancelledUnseen.add(callId);
    return false;
  }
}

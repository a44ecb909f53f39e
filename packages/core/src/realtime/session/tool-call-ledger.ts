/** What {@link ToolCallLedger.admit} decided about a function call. */
export type ToolCallAdmission =
  /** A call id never seen in this session: run it. */
  | { kind: 'new' }
  /** The same call (same id, name and arguments) again: it already ran or runs; do nothing. */
  | { kind: 'repeat' }
  /** A known call id with another name or other arguments: never run, report it. */
  | { kind: 'conflict'; first: { name: string; arguments: string } }
  /** The provider cancelled this call id before delivering it: never run. */
  | { kind: 'cancelled' };

/**
 * The session's record of every function call id it has admitted, for the session's whole life (across
 * responses and reconnects): a call id runs at most once, whatever the provider re-sends. Providers may
 * de-duplicate too; the session does not rely on it.
 */
export class ToolCallLedger {
  /** Created on the first call: an idle session holds none. */
  #calls: Map<string, { name: string; arguments: string }> | undefined;
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
    if (first.name === call.name && first.arguments === call.arguments) return { kind: 'repeat' };
    return { kind: 'conflict', first: { ...first } };
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

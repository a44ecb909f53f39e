/**
 * How a turn ends (docs/architecture.md, "Where each rule lives"). Every turn ends in exactly one of these; nothing else decides whether the
 * loop goes on.
 */
export type NextStep =
  /** Call the model again with the same agent (tools ran, or errors went back to the model). */
  | { type: 'run_again' }
  /** Control passed to another agent; its first model call starts the next turn. */
  | { type: 'handoff' }
  /** A final output candidate exists: run output guardrails and finish. */
  | { type: 'final_output'; output: unknown }
  /** Tool calls wait for approval: pause, keeping the turn so it resumes without redoing work. */
  | { type: 'interruption' };

const BACKGROUND_RESULT = Symbol.for('parley.backgroundResult');

/**
 * A tool result the model gets without being asked to answer it: in a realtime session its output is sent to the
 * model and no response is requested for it (the model uses it in its next turn). Make one with
 * {@link backgroundResult}.
 */
export interface BackgroundResult<T = unknown> {
  readonly [BACKGROUND_RESULT]: true;
  /** The result itself, serialized for the model like any tool result. */
  readonly value: T;
}

/**
 * Wraps a tool's result so that a realtime session sends it to the model without starting a response, e.g. a
 * lookup the model should know about but not speak up for:
 *
 * ```ts
 * execute: async ({ orderId }) => backgroundResult(await track(orderId)),
 * ```
 *
 * In a `Runner` run the model is called again after tool outputs anyway: there it is the plain value.
 */
export function backgroundResult<T>(value: T): BackgroundResult<T> {
  return Object.freeze({ [BACKGROUND_RESULT]: true as const, value });
}

/** Whether `value` was made by {@link backgroundResult} (in any copy of this package). */
export function isBackgroundResult(value: unknown): value is BackgroundResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[BACKGROUND_RESULT] === true
  );
}

/** A plain JSON object. */
export type JsonObject = { [key: string]: unknown };

/** `true` for `{...}` objects (not arrays, not null, not class instances like Uint8Array). */
export function isPlainObject(value: unknown): value is JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `value` when it is a string, else `undefined`: how a reader takes an optional string field of the wire. */
export function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Merges `patch` into a copy of `base`: plain objects merge key by key, everything else (arrays, `null`,
 * primitives) replaces; `undefined` in the patch leaves the base value.
 */
export function deepMerge<T extends JsonObject>(base: T, patch: JsonObject): T {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const current = out[key];
    out[key] = isPlainObject(value) && isPlainObject(current) ? deepMerge(current, value) : cloneJson(value);
  }
  return out as T;
}

function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isPlainObject(value)) return deepMerge({}, value);
  return value;
}

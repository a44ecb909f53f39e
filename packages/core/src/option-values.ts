import { UserError } from './errors.js';

/** A `UserError` with code `invalid_option`: `message` names the option and says what to pass instead. */
export function invalidOption(message: string): UserError {
  return new UserError(message, { code: 'invalid_option' });
}

/** A duration option in whole milliseconds above zero; `fallback` when it is left out. */
export function positiveMs(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw invalidOption(`${name} must be a positive integer (ms).`);
  return value;
}

/** What one option accepts: the words an error uses for it, and the test. */
export interface OptionRule {
  /** E.g. `an AbortSignal`; the error reads `<where>: <key> must be <takes>, got …`. */
  readonly takes: string;
  accepts(value: unknown): boolean;
  /** For a list: the rule each entry must pass (the error then names the entry, e.g. `tools[1]`). */
  readonly each?: OptionRule;
}

/**
 * Throws an `invalid_option` {@link UserError} for the first option of `options` whose value its rule does
 * not accept (an option left `undefined` is not checked). Run next to the unknown-key check, before anything
 * connects or runs.
 */
export function checkOptionValues(where: string, options: object, rules: Record<string, OptionRule>): void {
  // Every rule is asked, so an option read through an accessor is checked too; `for…in` over the rules' own literal
  // allocates nothing (this runs for every Agent and run).
  for (const key in rules) {
    const rule = rules[key] as OptionRule;
    const value = (options as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (!rule.accepts(value)) throw invalidValue(where, key, rule.takes, value);
    if (!rule.each || !Array.isArray(value)) continue;
    const index = value.findIndex((entry) => !rule.each?.accepts(entry));
    if (index >= 0) throw invalidValue(where, `${key}[${index}]`, rule.each.takes, value[index]);
  }
}

function invalidValue(where: string, key: string, takes: string, value: unknown): UserError {
  return invalidOption(`${where}: ${key} must be ${takes}, got ${describeValue(value)}.`);
}

/** What a wrong value is, without its content (a misplaced string may be a key or a user's words). */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const hasMethods = (value: unknown, names: readonly string[]): boolean =>
  isObject(value) && names.every((name) => typeof value[name] === 'function');

/** Rules shared by the options objects. */
export const optionRules = {
  boolean: { takes: 'true or false', accepts: (value) => typeof value === 'boolean' },
  string: { takes: 'a string', accepts: (value) => typeof value === 'string' },
  function: { takes: 'a function', accepts: (value) => typeof value === 'function' },
  signal: {
    takes: 'an AbortSignal',
    accepts: (value) =>
      isObject(value) && typeof value.aborted === 'boolean' && hasMethods(value, ['addEventListener']),
  },
  // What a Model object must offer is checked where it is used (model-check.ts), with messages about models.
  model: {
    takes: 'a model name or a Model',
    accepts: (value) => typeof value === 'string' || isObject(value),
  },
  modelProvider: {
    takes: 'a ModelProvider (with getModel())',
    accepts: (value) => hasMethods(value, ['getModel']),
  },
  session: {
    takes: 'a Session (getItems, addItems, popItem, clearSession), e.g. new MemorySession()',
    accepts: (value) => hasMethods(value, ['getItems', 'addItems', 'popItem', 'clearSession']),
  },
  hooks: { takes: 'a RunHooks', accepts: (value) => hasMethods(value, ['on', 'emit']) },
  guardrails: {
    takes: 'an array of guardrails',
    accepts: Array.isArray,
    each: {
      takes: 'a guardrail ({ name, execute })',
      accepts: (value) =>
        isObject(value) && typeof value.name === 'string' && typeof value.execute === 'function',
    },
  },
  tools: {
    takes: 'an array of tools',
    accepts: Array.isArray,
    each: {
      takes: 'a function tool made with tool()',
      accepts: (value) =>
        isObject(value) &&
        value.type === 'function' &&
        typeof value.name === 'string' &&
        typeof value.execute === 'function',
    },
  },
  zodSchema: { takes: 'a zod schema', accepts: (value) => hasMethods(value, ['safeParse']) },
} satisfies Record<string, OptionRule>;

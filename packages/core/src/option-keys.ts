import { brand } from './brand.js';
import { UserError } from './errors.js';

/** An option key that is not one of the valid keys (a typo, or an option of another object). */
export class UnknownOptionError extends UserError {
  static {
    brand(UnknownOptionError, 'core.UnknownOptionError');
  }

  /** The unknown key, with its path inside the options object, e.g. `config.vocie`. */
  readonly option: string;
  /** The nearest valid key (same path), when one is close enough to be the intended one. */
  readonly suggestion: string | undefined;

  constructor(owner: string, option: string, suggestion: string | undefined, valid: readonly string[]) {
    super(
      `Unknown option '${option}' in ${owner}. ` +
        (suggestion === undefined ? `Valid options: ${valid.join(', ')}.` : `Did you mean '${suggestion}'?`),
      { code: 'unknown_option' },
    );
    this.option = option;
    this.suggestion = suggestion;
  }
}

/**
 * Every key of an options type, listed once as `{ key: true }`. The compiler checks the list against the
 * type both ways: a key missing from the list or not in the type is a type error.
 */
export type OptionKeyList<T> = { readonly [K in keyof Required<T>]: true };

/** The valid keys of one options object; {@link OptionKeys.check} rejects any other key. */
export interface OptionKeys {
  /** The name the error messages give the options object, e.g. `RunOptions`. */
  readonly owner: string;
  /** The valid keys. */
  readonly keys: readonly string[];
  /**
   * Throws an {@link UnknownOptionError} for the first own key of `options` that is not valid, naming the
   * nearest valid key. `path` prefixes the keys of a nested object (e.g. `config`).
   */
  check(options: object, path?: string): void;
}

/**
 * The unknown-option check for options type `T`, for every options object of the public API (plain
 * JavaScript callers have no types to catch a typo). Provider packages use it for their own options:
 *
 * ```ts
 * const MODEL_OPTIONS = optionKeys<MyModelOptions>('MyModelOptions', { apiKey: true, baseURL: true });
 * MODEL_OPTIONS.check(options); // { apikey: '…' } → "Unknown option 'apikey' in MyModelOptions. Did you mean 'apiKey'?"
 * ```
 */
export function optionKeys<T extends object>(owner: string, list: OptionKeyList<T>): OptionKeys {
  const keys = Object.keys(list);
  const valid = new Set(keys);
  return {
    owner,
    keys,
    check(options, path) {
      for (const key in options) {
        if (!Object.hasOwn(options, key) || valid.has(key)) continue;
        const prefix = path === undefined ? '' : `${path}.`;
        const nearest = nearestKey(key, keys);
        throw new UnknownOptionError(
          owner,
          prefix + key,
          nearest === undefined ? undefined : prefix + nearest,
          keys.map((k) => prefix + k),
        );
      }
    },
  };
}

/**
 * The valid key closest to `key` by edit distance (case-insensitive, a swap of two neighbours counts as one
 * edit), if it is within a third of its length (at least 2 edits) or contains `key` (a part of the name,
 * such as `lang` for `language` or `model` for `defaultModel`).
 */
function nearestKey(key: string, keys: readonly string[]): string | undefined {
  const typed = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of keys) {
    const valid = candidate.toLowerCase();
    const distance = editDistance(typed, valid);
    const close =
      distance <= Math.max(2, Math.floor(valid.length / 3)) || (typed.length >= 3 && valid.includes(typed));
    if (close && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(distance);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}

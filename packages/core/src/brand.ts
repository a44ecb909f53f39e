/** The static key under which a branded class keeps its brand. */
const BRAND = Symbol.for('parley.brand');

/** A class: abstract or not, whatever its constructor takes (private ones included). */
export type AnyClass = { readonly prototype: object };

function hasOwn(target: object, key: PropertyKey): boolean {
  return Object.hasOwn(target, key);
}

function brandedHasInstance(this: AnyClass, value: unknown): boolean {
  if (!hasOwn(this, BRAND)) return Function.prototype[Symbol.hasInstance].call(this, value);
  const brand = (this as unknown as Record<symbol, symbol>)[BRAND] as symbol;
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}

/**
 * Brands `cls` as `parley.<name>` so that `value instanceof cls` holds for an instance of the same class from
 * another installed copy of the package (two copies of `@parley/core` in one app): the brand is a
 * `Symbol.for` key, which every copy shares, set on the prototype (so subclasses inherit their parents'
 * brands). A subclass that is not branded itself falls back to the ordinary prototype check. Call it from
 * the class's static block: `static { brand(Agent, 'core.Agent'); }`.
 */
export function brand(cls: AnyClass, name: string): void {
  const key = Symbol.for(`parley.${name}`);
  Object.defineProperty(cls, BRAND, { value: key });
  Object.defineProperty(cls.prototype, key, { value: true });
  Object.defineProperty(cls, Symbol.hasInstance, { value: brandedHasInstance });
}

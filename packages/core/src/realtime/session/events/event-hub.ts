import { UserError } from '../../../errors.js';

interface Waiter<E> {
  resolve(result: IteratorResult<E>): void;
}

/** One `for await` consumer: its own buffer, and at most one pending `next()`. */
class Subscription<E> {
  readonly buffer: E[] = [];
  waiter: Waiter<E> | undefined;
  ended = false;

  push(event: E): void {
    if (this.ended) return;
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve({ value: event, done: false });
    } else {
      this.buffer.push(event);
    }
  }

  /** Ends the subscription: buffered events are still delivered, then `done`. */
  end(): void {
    this.ended = true;
    if (this.waiter && this.buffer.length === 0) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve({ value: undefined, done: true });
    }
  }
}

/**
 * Delivers typed events to listeners (`on`) and to any number of async iterators. `end()` wakes every
 * waiting iterator and ends it once its buffer is drained; later emits are dropped.
 */
export class EventHub<E extends { type: string }> {
  /** Replaced (never mutated) on subscribe and unsubscribe, so `emit` iterates a stable list without copying it. */
  readonly #listeners = new Map<string, readonly ((event: E) => void)[]>();
  /** Created on first use: an idle session holds none. */
  #subscriptions: Set<Subscription<E>> | undefined;
  readonly #onListenerError: (error: unknown, event: E) => void;
  #ended = false;

  constructor(onListenerError: (error: unknown, event: E) => void) {
    this.#onListenerError = onListenerError;
  }

  get ended(): boolean {
    return this.#ended;
  }

  on(type: string, listener: (event: E) => void): () => void {
    const present = this.#listeners.get(type) ?? [];
    // A function subscribed again is wrapped, so each subscription is unsubscribed on its own; a first one is held
    // as it is (the app's listener is the delta path's last call, with nothing in between).
    const entry = present.includes(listener) ? (event: E) => listener(event) : listener;
    // `concat` sizes the new list exactly (a spread grows it to spare capacity, kept per session).
    this.#listeners.set(type, present.concat(entry));
    let subscribed = true;
    return () => {
      const listeners = this.#listeners.get(type);
      if (!subscribed || !listeners?.includes(entry)) return;
      subscribed = false;
      const rest = listeners.filter((l) => l !== entry);
      if (rest.length > 0) this.#listeners.set(type, rest);
      else this.#listeners.delete(type);
    };
  }

  /** Whether an event of `type` emitted now would reach anyone (a listener or an iterator). */
  observed(type: string): boolean {
    return !this.#ended && ((this.#subscriptions?.size ?? 0) > 0 || this.#listeners.has(type));
  }

  emit(event: E): void {
    if (this.#ended) return;
    if ((this.#subscriptions?.size ?? 0) > 0)
      for (const subscription of this.#subscriptions ?? []) subscription.push(event);
    const listeners = this.#listeners.get(event.type);
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onListenerError(error, event);
      }
    }
  }

  /** Wakes and ends every iterator; drops listeners. Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const subscription of this.#subscriptions ?? []) subscription.end();
    this.#listeners.clear();
  }

  /** Ends every current iterator (after its buffered events); listeners and later iterators keep receiving events. */
  endIterators(): void {
    for (const subscription of this.#subscriptions ?? []) subscription.end();
    this.#subscriptions?.clear();
  }

  iterate(): AsyncIterableIterator<E> {
    const subscription = new Subscription<E>();
    if (this.#ended) subscription.end();
    else {
      this.#subscriptions ??= new Set<Subscription<E>>();
      this.#subscriptions.add(subscription);
    }
    const release = () => {
      subscription.end();
      subscription.buffer.length = 0;
      this.#subscriptions?.delete(subscription);
    };
    const iterator: AsyncIterableIterator<E> = {
      next: () => {
        const event = subscription.buffer.shift();
        if (event !== undefined) return Promise.resolve({ value: event, done: false });
        if (subscription.ended) {
          this.#subscriptions?.delete(subscription);
          return Promise.resolve({ value: undefined, done: true });
        }
        if (subscription.waiter) {
          return Promise.reject(
            new UserError('Await the previous next() of a session iterator before calling next() again.'),
          );
        }
        return new Promise<IteratorResult<E>>((resolve) => {
          subscription.waiter = { resolve };
        });
      },
      return: () => {
        release();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }
}

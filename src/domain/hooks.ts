// Domain events inside a transaction: how a lower area causes work in a higher one without
// importing it (test/unit/layers.test.ts: the areas' graph has no loops). The lower area declares
// a hook and emits it in its transaction; the higher area subscribes in its door (index.ts), so
// loading the higher area wires it. The subscribers run in the emitter's transaction, in order,
// and what they throw rolls the whole transaction back, as a direct call would.
//
// A hook that must be answered (`required`) throws when nothing has subscribed: a process that
// changed stock without the orders area loaded would otherwise skip backorders silently.

export interface Hook<A extends unknown[]> {
  readonly name: string;
  subscribe(fn: (...args: A) => Promise<unknown>): void;
  emit(...args: A): Promise<void>;
}

export function hook<A extends unknown[]>(name: string, opts: { required?: boolean } = {}): Hook<A> {
  const subscribers: ((...args: A) => Promise<unknown>)[] = [];
  return {
    name,
    subscribe(fn) {
      if (!subscribers.includes(fn)) subscribers.push(fn);
    },
    async emit(...args) {
      if (opts.required && subscribers.length === 0) {
        throw new Error(`No subscriber to the domain hook ${name}: the area that answers it was not loaded.`);
      }
      for (const fn of subscribers) await fn(...args);
    },
  };
}

/**
 * A question a lower area asks inside its transaction and one higher area answers (the rules'
 * decision at intake): like a required hook, but with one answerer and a value back.
 */
export interface Slot<T> {
  readonly name: string;
  answer(impl: T): void;
  /** The answerer; throws when no area has answered (it was not loaded). */
  get(): T;
}

export function slot<T>(name: string): Slot<T> {
  let impl: T | null = null;
  return {
    name,
    answer(i) {
      impl = i;
    },
    get() {
      if (impl === null) throw new Error(`No answer to the domain slot ${name}: the area that answers it was not loaded.`);
      return impl;
    },
  };
}

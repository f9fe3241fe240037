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

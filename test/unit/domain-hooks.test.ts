import { describe, expect, it } from 'vitest';
import { hook, slot } from '../../src/domain/hooks.js';
import { intakeRules } from '../../src/domain/orders/index.js';
import { stockFreed } from '../../src/domain/inventory/index.js';
import '../../src/domain/subscriptions.js';

// Lower areas announce inside their transactions; higher areas answer (test/unit/layers.test.ts
// keeps the areas' graph free of loops). A required hook or a slot nobody answers must fail loudly,
// never skip the work.

describe('domain hooks', () => {
  it('runs every subscriber in order with the arguments, once each however often it subscribed', async () => {
    const h = hook<[string[], string]>('test.ordered');
    const a = async (seen: string[], x: string) => seen.push(`a:${x}`);
    h.subscribe(a);
    h.subscribe(async (seen, x) => seen.push(`b:${x}`));
    h.subscribe(a);
    const seen: string[] = [];
    await h.emit(seen, 'x');
    expect(seen).toEqual(['a:x', 'b:x']);
  });

  it('passes a subscriber error to the emitter (its transaction then rolls back)', async () => {
    const h = hook<[]>('test.throws');
    h.subscribe(async () => {
      throw new Error('refused');
    });
    await expect(h.emit()).rejects.toThrow('refused');
  });

  it('a required hook with no subscriber throws; an optional one does nothing', async () => {
    await expect(hook<[]>('test.required', { required: true }).emit()).rejects.toThrow(/No subscriber to the domain hook test\.required/);
    await expect(hook<[]>('test.optional').emit()).resolves.toBeUndefined();
  });

  it('a slot answers with its last answer and throws before any', () => {
    const s = slot<() => number>('test.slot');
    expect(() => s.get()).toThrow(/No answer to the domain slot test\.slot/);
    s.answer(() => 1);
    s.answer(() => 2);
    expect(s.get()()).toBe(2);
  });

  it("the areas' own hooks are wired once their doors are loaded", async () => {
    expect(() => intakeRules.get()).not.toThrow();
    // stockFreed is required: with orders subscribed, an emit for a level nobody waits on is answered.
    const calls: unknown[] = [];
    const fakeTx = { orderLineItem: { findFirst: async (q: unknown) => (calls.push(q), null) } };
    await stockFreed.emit(fakeTx as never, { id: 'l1', product_id: 'p1', warehouse_id: 'w1' });
    expect(calls).toEqual([{ where: { product_id: 'p1', unallocated_quantity: { gt: 0 } }, select: { id: true } }]);
  });
});

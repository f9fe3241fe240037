import { expect } from 'vitest';
import type { AppConfig } from '../../src/server/app.js';
import { world, type World } from '../api/orders.fixtures.js';

// The automation-rules API tests' world (test/api/automation-rules*.test.ts): the orders world
// (a fulfiller team with two warehouses and a merchant) plus the calls every rules test makes.

export interface RulesWorld extends World {
  /** The call's JSON body, after asserting its status. */
  ok(method: string, path: string, body?: unknown, status?: number): Promise<any>;
  /** Creates a rule (name 'r' unless given). */
  rule(body: Record<string, unknown>): Promise<any>;
  drop(ruleId: string): Promise<unknown>;
  /** POST /v1/ops/automation-rules/test with a hypothetical order. */
  test(order: Record<string, unknown>): Promise<any>;
}

export async function rulesWorld(config: AppConfig = {}): Promise<RulesWorld> {
  const w = (await world(config)) as RulesWorld;
  w.ok = async (method, path, body, status = 200) => {
    const r = await w.call(method, path, body);
    expect(r.statusCode, `${method} ${path}: ${r.body}`).toBe(status);
    return r.body ? r.json() : null;
  };
  w.rule = (body) => w.ok('POST', '/v1/ops/automation-rules', { name: 'r', ...body }, 201);
  w.drop = (id) => w.ok('DELETE', `/v1/ops/automation-rules/${id}`, undefined, 204);
  w.test = (order) => w.ok('POST', '/v1/ops/automation-rules/test', { order });
  return w;
}

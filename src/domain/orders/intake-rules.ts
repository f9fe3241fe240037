import type { TxClient } from '../../db/types.js';
import { slot } from '../hooks.js';
import type { OrderPlan } from './place.js';

// The automation rules at intake (docs/automation.md), asked by writeOrder inside its
// transaction and answered by the automation-rules area (its door answers this slot), which sits
// above orders: the rules act on orders, so orders never imports them.

/** What the rules decided before the order is written; the rest of it is the rules' own. */
export interface IntakeDecision {
  route: { warehouse_id: string; only: boolean } | null;
  priority: string | null;
}

export interface IntakeRules {
  /** Before allocation: a routing rule picks the warehouse, a priority rule the queue place. */
  decide(tx: TxClient, teamId: string, fields: OrderPlan['fields'], cores: OrderPlan['cores'], now: number): Promise<IntakeDecision | null>;
  /** After the order is written: the decision on the order (trace, selection, config, tags, holds). */
  apply(tx: TxClient, teamId: string, orderId: string, now: number, decided: IntakeDecision | null): Promise<unknown>;
}

export const intakeRules = slot<IntakeRules>('orders.intakeRules');

import type { Db, Prisma, TxClient } from '../../db/types.js';

// The automation rules' data access (issue 38 item 4), through Prisma: the rules and their
// history, the references a rule names, and what applying rules reads and writes of an order.
// The rules' own rules (compiling, evaluating, who set what) stay in the area's other files.

type Client = Db['prisma'] | TxClient;

// Rules.

/** The team's enabled rules, by position. */
export function findEnabledRules(client: Client, teamId: string) {
  return client.automationRule.findMany({ where: { team_id: teamId, enabled: true }, orderBy: [{ position: 'asc' }, { id: 'asc' }] });
}

/** The team's rules' ids and positions, by position. */
export function findRulePositions(tx: TxClient, teamId: string) {
  return tx.automationRule.findMany({
    where: { team_id: teamId },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
    select: { id: true, position: true },
  });
}

export function setRulePosition(tx: TxClient, id: string, position: number) {
  return tx.automationRule.update({ where: { id }, data: { position } });
}

export function countTeamRules(tx: TxClient, teamId: string) {
  return tx.automationRule.count({ where: { team_id: teamId } });
}

export function insertRule(tx: TxClient, data: Prisma.AutomationRuleUncheckedCreateInput) {
  return tx.automationRule.create({ data });
}

export function findRuleOrThrow(tx: TxClient, id: string) {
  return tx.automationRule.findUniqueOrThrow({ where: { id } });
}

export function findTeamRule(client: Client, teamId: string, id: string) {
  return client.automationRule.findFirst({ where: { id, team_id: teamId } });
}

export function teamRuleExists(client: Client, teamId: string, id: string) {
  return client.automationRule.findFirst({ where: { id, team_id: teamId }, select: { id: true } });
}

/** A page of the team's rules (of the merchant, when given) by position: OFFSET `skip`, `take` rows. */
export function findRulePage(client: Client, teamId: string, merchantTeamId: string | undefined, skip: number, take: number) {
  return client.automationRule.findMany({
    where: { team_id: teamId, ...(merchantTeamId ? { merchant_team_id: merchantTeamId } : {}) },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
    skip,
    take,
  });
}

/** Updates the rule unless its version moved on from `version` (compare-and-set); the count. */
export function updateRuleIfVersion(tx: TxClient, id: string, version: number, data: Prisma.AutomationRuleUpdateManyMutationInput) {
  return tx.automationRule.updateMany({ where: { id, version }, data });
}

/** Deletes the team's rule unless its version moved on from `version` (compare-and-set); the count. */
export function deleteRuleIfVersion(tx: TxClient, teamId: string, id: string, version: number) {
  return tx.automationRule.deleteMany({ where: { id, team_id: teamId, version } });
}

export function insertRuleVersion(tx: TxClient, data: Prisma.AutomationRuleVersionUncheckedCreateInput) {
  return tx.automationRuleVersion.create({ data });
}

/** A page of a rule's history, newest first: OFFSET `skip`, `take` rows. */
export function findRuleVersionPage(client: Client, teamId: string, ruleId: string, skip: number, take: number) {
  return client.automationRuleVersion.findMany({
    where: { team_id: teamId, rule_id: ruleId },
    orderBy: [{ created_at: 'desc' }, { version: 'desc' }, { id: 'desc' }],
    skip,
    take,
  });
}

export function countRuleVersions(client: Client, teamId: string, ruleId: string) {
  return client.automationRuleVersion.count({ where: { team_id: teamId, rule_id: ruleId } });
}

// What a rule names.

export function teamIntegrationExists(tx: TxClient, teamId: string, id: string) {
  return tx.carrierIntegration.findFirst({ where: { id, team_id: teamId }, select: { id: true } });
}

export function teamExists(tx: TxClient, id: string) {
  return tx.team.findUnique({ where: { id }, select: { id: true } });
}

export function teamWarehouseExists(tx: TxClient, teamId: string, id: string) {
  return tx.warehouse.findFirst({ where: { id, team_id: teamId }, select: { id: true } });
}

export function findIntegrationName(tx: TxClient, id: string) {
  return tx.carrierIntegration.findFirst({ where: { id }, select: { name: true, type: true } });
}

// Orders the rules apply to.

/** What the facts of an order are made of: its columns and CORE lines. */
export const FACT_SELECT = {
  id: true,
  order_number: true,
  status: true,
  fulfiller_team_id: true,
  merchant_team_id: true,
  shop_id: true,
  tags: true,
  shipping_address: true,
  total_price: true,
  shipping_method: true,
  priority: true,
  address_residential: true,
  deliver_by: true,
  config: true,
  routed_warehouse_id: true,
  routed_warehouse_only: true,
  carrier_selection: true,
  line_items: {
    where: { kind: 'CORE' as const },
    select: { sku: true, product_id: true, total_quantity: true, removed_quantity: true },
  },
} as const;

export function findOrderFacts(client: Client, teamId: string, orderId: string) {
  return client.order.findFirst({ where: { id: orderId, fulfiller_team_id: teamId }, select: FACT_SELECT });
}

/** Weight and sides (with their units) of these products. */
export function findMeasures(client: Client, ids: string[]) {
  return client.product.findMany({
    where: { id: { in: ids } },
    select: { id: true, weight: true, weight_unit: true, length: true, width: true, height: true, measurement_unit: true },
  });
}

export function findShopType(client: Client, id: string) {
  return client.shop.findUnique({ where: { id }, select: { shop_type: true } });
}

export function findTeamOrderStatus(tx: TxClient, teamId: string, orderId: string) {
  return tx.order.findFirst({ where: { id: orderId, fulfiller_team_id: teamId }, select: { status: true, order_number: true } });
}

export function updateOrder(tx: TxClient, id: string, data: Prisma.OrderUpdateInput) {
  return tx.order.update({ where: { id }, data });
}

export function findActiveHold(tx: TxClient, orderId: string, reason: Prisma.OrderFulfillmentHoldWhereInput['reason']) {
  return tx.orderFulfillmentHold.findFirst({ where: { order_id: orderId, active: true, reason } });
}

/** Up to 200 of the team's orders in these statuses after `after` (by id): their ids. */
export function findOrderIdsAfter(client: Client, teamId: string, statuses: string[], after: string | undefined) {
  return client.order.findMany({
    where: { fulfiller_team_id: teamId, status: { in: statuses as never }, ...(after ? { id: { gt: after } } : {}) },
    select: { id: true },
    orderBy: { id: 'asc' },
    take: 200,
  });
}

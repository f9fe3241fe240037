import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import {
  ApplyAllResponse,
  CreateRuleBody,
  RuleListQuery,
  RuleListSchema,
  RuleParams,
  RuleSchema,
  RuleVersionListSchema,
  RuleVersionQuery,
  TestRulesBody,
  TestRulesResponse,
  UpdateRuleBody,
} from '../../../contract/automation-rules.js';
import { IdParams } from '../../../contract/common.js';
import { OrderSchema } from '../../../contract/orders.js';
import { applyRulesToOpenOrders, applyRulesToOrder } from '../../../domain/automation-rules/index.js';
import { createRule, deleteRule, getRule, listRules, listRuleVersions, updateRule } from '../../../domain/automation-rules/index.js';
import { testRules } from '../../../domain/automation-rules/index.js';
import { getOrder } from '../../../domain/orders/index.js';

// Automation rules (docs/automation.md): the team's ordered list, a dry run, and re-applying.

const tags = ['Orders'];
const read = { permission: 'READ_ORDERS', family: 'ops' } as const;
const write = { permission: 'WRITE_ORDERS', family: 'ops' } as const;
type P = { Params: Static<typeof RuleParams> };
const actor = (r: { principal: { teamId: string; keyId?: string | null; keyName?: string | null } }) => ({
  teamId: r.principal.teamId,
  keyId: r.principal.keyId ?? null,
  keyName: r.principal.keyName ?? null,
});

export default async function routes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof RuleListQuery> }>(
    '/v1/ops/automation-rules',
    {
      config: read,
      schema: {
        operationId: 'listAutomationRules',
        tags,
        summary: 'List automation rules in evaluation order (position)',
        querystring: RuleListQuery,
        response: { 200: RuleListSchema },
      },
    },
    async (request) => listRules(app.db, request.principal.teamId, request.query),
  );

  app.post<{ Body: Static<typeof CreateRuleBody> }>(
    '/v1/ops/automation-rules',
    {
      config: write,
      schema: {
        operationId: 'createAutomationRule',
        tags,
        summary: 'Create an automation rule (default: last in the list)',
        description: 'Refused with 400 naming the path: unknown fields, wrong types, an unknown carrier integration or merchant.',
        body: CreateRuleBody,
        response: { 201: RuleSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createRule(app.db, actor(request), request.body)),
  );

  app.post<{ Body: Static<typeof TestRulesBody> }>(
    '/v1/ops/automation-rules/test',
    {
      config: read,
      schema: {
        operationId: 'testAutomationRules',
        tags,
        summary: 'Which rules would match an order (stored or hypothetical) and what they would set; writes nothing',
        body: TestRulesBody,
        response: { 200: TestRulesResponse },
      },
    },
    async (request) => testRules(app.db, request.principal.teamId, request.body),
  );

  app.post(
    '/v1/ops/automation-rules/apply',
    {
      config: write,
      schema: {
        operationId: 'applyAutomationRulesToOpenOrders',
        tags,
        summary: 'Re-apply the rules to every open order of the team (one transaction per order)',
        response: { 200: ApplyAllResponse },
      },
    },
    async (request) => applyRulesToOpenOrders(app.db, request.principal.teamId),
  );

  app.get<P>(
    '/v1/ops/automation-rules/:automation_rule_id',
    {
      config: read,
      schema: {
        operationId: 'getAutomationRule',
        tags,
        summary: 'Get an automation rule',
        params: RuleParams,
        response: { 200: RuleSchema },
      },
    },
    async (request) => getRule(app.db, request.principal.teamId, request.params.automation_rule_id),
  );

  app.patch<P & { Body: Static<typeof UpdateRuleBody> }>(
    '/v1/ops/automation-rules/:automation_rule_id',
    {
      config: write,
      schema: {
        operationId: 'updateAutomationRule',
        tags,
        summary: 'Update a rule (bumps version; position moves it; version in the body = compare-and-set)',
        params: RuleParams,
        body: UpdateRuleBody,
        response: { 200: RuleSchema },
      },
    },
    async (request) => updateRule(app.db, actor(request), request.params.automation_rule_id, request.body),
  );

  app.delete<P>(
    '/v1/ops/automation-rules/:automation_rule_id',
    {
      config: write,
      schema: {
        operationId: 'deleteAutomationRule',
        tags,
        summary: 'Delete an automation rule (traces already written keep its id and version)',
        params: RuleParams,
        response: { 204: { type: 'null', description: 'Deleted' } },
      },
    },
    async (request, reply) => {
      await deleteRule(app.db, actor(request), request.params.automation_rule_id);
      return reply.code(204).send();
    },
  );

  app.get<P & { Querystring: Static<typeof RuleVersionQuery> }>(
    '/v1/ops/automation-rules/:automation_rule_id/versions',
    {
      config: read,
      schema: {
        operationId: 'listAutomationRuleVersions',
        tags,
        summary: "A rule's history, newest first: who changed it, when, and the rule before and after (kept after a delete)",
        params: RuleParams,
        querystring: RuleVersionQuery,
        response: { 200: RuleVersionListSchema },
      },
    },
    async (request) => listRuleVersions(app.db, request.principal.teamId, request.params.automation_rule_id, request.query),
  );

  app.post<{ Params: { order_id: string } }>(
    '/v1/ops/orders/:order_id/apply-rules',
    {
      config: write,
      schema: {
        operationId: 'applyAutomationRulesToOrder',
        tags,
        summary: 'Re-apply the automation rules to one open order; answers the order with its automation_trace',
        params: IdParams('order_id'),
        response: { 200: OrderSchema },
      },
    },
    async (request) => {
      await applyRulesToOrder(app.db, request.principal.teamId, request.params.order_id);
      return getOrder(app.db, request.principal.teamId, request.params.order_id);
    },
  );
}

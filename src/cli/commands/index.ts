import type { Command } from 'commander';
import type { Context } from '../context.js';
import api from './api/api.js';
import carrierRates from './carrier-rates/index.js';
import charges from './charges/index.js';
import completion from './completion/completion.js';
import completeValues from './completion/values.js';
import config from './config/index.js';
import draftOrders from './draft-orders/index.js';
import files from './files/index.js';
import fulfill from './fulfill/index.js';
import fulfillmentOrders from './fulfillment-orders/index.js';
import keys from './keys/index.js';
import login from './login/login.js';
import logout from './login/logout.js';
import auth from './login/auth-status.js';
import orders from './orders/index.js';
import inventory from './inventory/index.js';
import labels from './labels/index.js';
import purchaseOrders from './purchase-orders/index.js';
import returns from './returns/index.js';
import scanForms from './scan-forms/index.js';
import packages from './packages/index.js';
import pickingSessions from './picking-sessions/index.js';
import products from './products/index.js';
import profile from './profile/index.js';
import roles from './roles/index.js';
import mcpConnections from './mcp-connections/index.js';
import vendors from './vendors/index.js';
import webhooks from './webhooks/index.js';

/**
 * Every client command, by help section. Builders only declare options and actions: they import
 * commander and small helpers, never undici/conf/inquirer at load time, so `fos --help` is quick.
 * `fos fulfill run` (a later issue) goes in a `fulfill` group: commands/fulfill/{index,run}.ts.
 */
export const COMMAND_SECTIONS: [string, ((ctx: Context) => Command)[]][] = [
  ['Getting started:', [login, logout, auth, profile, config]],
  ['Workflows:', [fulfill]],
  ['Resources:', [
    products, inventory, purchaseOrders, returns, vendors, orders, draftOrders, fulfillmentOrders, packages, scanForms, labels, carrierRates,
    charges, files, pickingSessions, keys, roles, mcpConnections, webhooks,
  ]],
  ['Scripting:', [api, completion]],
];

export function registerCommands(program: Command, ctx: Context): void {
  for (const [heading, builders] of COMMAND_SECTIONS) {
    for (const build of builders) program.addCommand(build(ctx).helpGroup(heading));
  }
  program.addCommand(completeValues(ctx), { hidden: true });
}

import type { FastifyInstance } from 'fastify';
import me from './me.js';
import opsProducts from './ops/products.js';
import merchantProducts from './merchant/products.js';
import merchantVendors from './merchant/vendors.js';
import orders from './ops/orders.js';
import draftOrders from './ops/draft-orders.js';
import fulfillmentOrders from './ops/fulfillment-orders.js';
import packages from './ops/packages.js';
import carrierRates from './ops/carrier-rates.js';
import carrierIntegrations from './ops/carrier-integrations.js';
import carrierWebhooks from './carrier-webhooks.js';
import charges from './ops/charges.js';
import carrierInvoices from './ops/carrier-invoices.js';
import files from './ops/files.js';
import pickingSessions from './ops/picking-sessions.js';
import keys from './access/keys.js';
import roles from './access/roles.js';
import users from './access/users.js';
import mcpConnections from './access/mcp-connections.js';
import auditEvents from './access/audit-events.js';
import webhooks from './webhooks.js';
import inventory from './ops/inventory.js';
import purchaseOrders from './ops/purchase-orders.js';
import merchantPurchaseOrders from './merchant/purchase-orders.js';
import transfers from './ops/transfers.js';
import returns from './ops/returns.js';
import scanForms from './ops/scan-forms.js';
import labelBatches from './ops/label-batches.js';
import automationRules from './ops/automation-rules.js';
import exportsRoutes from './ops/exports.js';
import backorders from './ops/backorders.js';
import delegations from './ops/delegations.js';
import warehouses from './ops/warehouses.js';
import shops from './shops.js';
import channelWebhooks from './channel-webhooks.js';
import shopifyApp from './shopify-app.js';
import bigcommerceApp from './bigcommerce-app.js';
import shopAuthorizations from './shop-authorizations.js';
import locations from './ops/locations.js';
import packScans from './ops/pack-scans.js';
import replenishments from './ops/replenishments.js';
import workOrders from './ops/work-orders.js';
import floor from './floor.js';
import home from './home.js';
import invoices from './ops/invoices.js';
import merchantBilling from './merchant/billing.js';
import storageBilling from './ops/storage-billing.js';
import rateCards from './ops/rate-cards.js';

/** Every HTTP route of the API. One module per resource; each registers its own paths. */
export async function registerRoutes(app: FastifyInstance) {
  for (const plugin of [
    me,
    opsProducts,
    merchantProducts,
    merchantVendors,
    orders,
    draftOrders,
    fulfillmentOrders,
    packages,
    scanForms,
    labelBatches,
    automationRules,
    carrierRates,
    charges,
    carrierInvoices,
    files,
    pickingSessions,
    inventory,
    purchaseOrders,
    merchantPurchaseOrders,
    transfers,
    returns,
    keys,
    roles,
    users,
    mcpConnections,
    webhooks,
    // added since: one a line
    carrierIntegrations,
    carrierWebhooks,
    exportsRoutes,
    backorders,
    delegations,
    warehouses,
    shops,
    channelWebhooks,
    shopifyApp,
    bigcommerceApp,
    shopAuthorizations,
    locations,
    packScans,
    replenishments,
    workOrders,
    auditEvents,
    floor,
    home,
    invoices,
    merchantBilling,
    storageBilling,
    rateCards,
  ]) {
    await app.register(plugin);
  }
}

import type { Db } from '../../db/types.js';
import { isUniqueViolation } from '../../db/client.js';
import { DomainError, invalid, type FieldError } from '../errors.js';
import type { ShopType } from '../../contract/orders-enums.js';
import {
  findActiveDelegations,
  findMerchantProducts,
  findMerchantProductsBySku,
  findMerchantShop,
  findShopBySlug,
  insertShop,
} from './store/reach.js';

// What a fulfiller key may put on a draft order: a merchant team delegated to its team, a shop
// of that merchant, and that merchant's products.

export async function resolveMerchant(db: Db, fulfillerTeamId: string, merchantTeamId?: string) {
  const delegations = await findActiveDelegations(db.prisma, fulfillerTeamId, merchantTeamId);
  if (merchantTeamId && !delegations.length) {
    throw invalid('body.merchant_team_id', 'is not a merchant team delegated to this fulfiller team');
  }
  if (!delegations.length) throw invalid('body.merchant_team_id', 'no merchant team is delegated to this fulfiller team');
  if (delegations.length > 1) {
    throw invalid('body.merchant_team_id', 'is required: several merchant teams are delegated to this fulfiller team');
  }
  return delegations[0].merchant_team;
}

export const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 60) || 'shop';

/** shop_id (must be the merchant's), shop {name, shop_type} (found by slug or created), or the merchant's "Manual orders" shop. */
export async function resolveShop(
  db: Db,
  merchantTeamId: string,
  fulfillerTeamId: string,
  input: { shop_id?: string; shop?: { name: string; shop_type?: ShopType } },
) {
  if (input.shop_id && input.shop) throw invalid('body.shop', 'give either shop_id or shop, not both');
  if (input.shop_id) {
    const shop = await findMerchantShop(db.prisma, merchantTeamId, input.shop_id);
    if (!shop) throw invalid('body.shop_id', 'is not a shop of the merchant team');
    return shop;
  }
  const name = input.shop?.name.trim() || 'Manual orders';
  const shopType = input.shop?.shop_type ?? 'MANUAL';
  const slug = slugify(name);
  const find = () => findShopBySlug(db.prisma, merchantTeamId, slug);
  let shop = await find();
  if (!shop) {
    try {
      shop = await insertShop(db.prisma, {
        merchant_team_id: merchantTeamId,
        fulfiller_team_id: fulfillerTeamId,
        name,
        slug,
        shop_type: shopType,
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      shop = await find(); // created concurrently by another request
    }
  }
  if (!shop) throw new DomainError('internal', 'The shop could not be created.');
  if (input.shop && shop.shop_type !== shopType) {
    throw invalid('body.shop.shop_type', `the merchant's shop "${shop.name}" is a ${shop.shop_type} shop`);
  }
  return shop;
}

export interface LineRef {
  product_id?: string;
  sku?: string;
}

export interface ResolvedProduct {
  id: string;
  name: string;
  sku: string | null;
  image_url: string | null;
}

/** One product per line, from the merchant's products; all unknown lines reported at once. */
export async function resolveProducts(
  db: Db,
  merchantTeamId: string,
  lines: LineRef[],
  at = 'body.line_items',
): Promise<ResolvedProduct[]> {
  const ids = [...new Set(lines.map((l) => l.product_id).filter((v): v is string => !!v))];
  const skus = [...new Set(lines.filter((l) => !l.product_id && l.sku).map((l) => l.sku!))];
  const [byIdRows, bySkuRows] = await Promise.all([
    ids.length ? findMerchantProducts(db.prisma, merchantTeamId, ids) : [],
    skus.length ? findMerchantProductsBySku(db.prisma, merchantTeamId, skus) : [],
  ]);
  const byId = new Map(byIdRows.map((p) => [p.id, p]));
  const bySku = new Map<string, (typeof bySkuRows)[number]>();
  for (const p of bySkuRows) if (p.sku && !bySku.has(p.sku)) bySku.set(p.sku, p);

  const errors: FieldError[] = [];
  const out: ResolvedProduct[] = [];
  lines.forEach((line, i) => {
    const path = `${at}.${i}`;
    if (!line.product_id && !line.sku) {
      errors.push({ path: `${path}.product_id`, message: 'give product_id or sku' });
      return;
    }
    const p = line.product_id ? byId.get(line.product_id) : bySku.get(line.sku!);
    if (!p) {
      errors.push(
        line.product_id
          ? { path: `${path}.product_id`, message: `no product ${line.product_id} of the merchant team` }
          : { path: `${path}.sku`, message: `no product with SKU ${line.sku} of the merchant team` },
      );
      return;
    }
    if (line.product_id && line.sku && p.sku !== line.sku) {
      errors.push({ path: `${path}.sku`, message: `product ${p.id} has SKU ${p.sku ?? '(none)'}, not ${line.sku}` });
      return;
    }
    out.push({ id: p.id, name: p.name, sku: p.sku, image_url: p.image_url });
  });
  if (errors.length) {
    throw new DomainError('validation-failed', `Invalid line items: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}.`, {
      errors,
    });
  }
  return out;
}

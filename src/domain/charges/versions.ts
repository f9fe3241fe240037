import { createHash } from 'node:crypto';
import { isUniqueViolation } from '../../db/client.js';
import { transaction } from '../../db/tx.js';
import type { Db, TxClient } from '../../db/types.js';
import { dbNow } from '../clock.js';
import type { BillableEvent, FeeRule, RateCardVersionDoc } from '../../contract/rate-cards.js';
import { conflict, DomainError, notFound, type FieldError } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { compiledVersion, priceEvent, type CompiledVersion, type VersionRecord } from './pricing.js';
import { findCardDelegations, findFulfillerDelegation, linkRateCard } from './store/delegations.js';
import {
  findCardName,
  findCardPage,
  findCardVersions,
  findTeamCard,
  findTeamCardByRef,
  findTeamCardNamed,
  findVersionByRef,
  findVersionBySemver,
  findVersionInForce,
  insertVersion,
  touchCard,
  upsertCardNamed,
} from './store/rate-cards.js';

// Versioned rate cards (issue 40, docs/billing.md): a fulfiller team's cards, each a list of
// immutable versions in force from their effective_at. Publishing adds a version; the same
// content published again under the same semantic_version is that version (a retried publish),
// different content under a taken one is 409.

type VersionRow = { id: string; rate_card_id: string; semantic_version: string; effective_at: Date; currency: string } & {
  fees: unknown;
  note: string | null;
  created_at: Date;
};

export const versionView = (card: { id: string; name: string }, v: VersionRow) => ({
  rate_card_id: card.id,
  rate_card_name: card.name,
  version_id: v.id,
  semantic_version: v.semantic_version,
  effective_at: v.effective_at,
  currency: v.currency,
  note: v.note,
  fees: v.fees as FeeRule[],
  created_at: v.created_at.toISOString(),
});

const NEEDS: Record<string, Array<keyof FeeRule['price']>> = {
  FLAT: ['amount'],
  PER_UNIT: ['amount'],
  PER_ORDER: ['amount'],
  PER_LINE: ['amount'],
  PER_LOCATION: ['amount'],
  FIRST_ADDITIONAL: ['first', 'additional'],
  TIERED: ['tiers'],
  LABEL_PERCENT: ['percent'],
  LABEL_MARKUP: ['markup_percent'],
};

/** What the schema cannot say: unique rule ids, the members each price type needs, tier order. */
export function validateFees(fees: FeeRule[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  fees.forEach((f, i) => {
    const path = `body.fees.${i}`;
    if (seen.has(f.id)) errors.push({ path: `${path}.id`, message: `duplicate fee id ${f.id}` });
    seen.add(f.id);
    for (const m of NEEDS[f.price.type])
      if (f.price[m] === undefined) errors.push({ path: `${path}.price.${m}`, message: `required by ${f.price.type}` });
    if (f.price.type.startsWith('LABEL_') && f.event !== 'SHIPPING')
      errors.push({ path: `${path}.price.type`, message: 'label prices are for SHIPPING' });
    if (f.price.type === 'PER_LOCATION' && f.event !== 'STORAGE')
      errors.push({ path: `${path}.price.type`, message: 'PER_LOCATION is for STORAGE' });
    const tiers = f.price.tiers ?? [];
    tiers.forEach((t, j) => {
      const last = j === tiers.length - 1;
      if (last !== (t.up_to === null))
        errors.push({ path: `${path}.price.tiers.${j}.up_to`, message: 'only the last tier is open (null)' });
      if (j > 0 && t.up_to !== null && tiers[j - 1].up_to !== null && t.up_to <= tiers[j - 1].up_to!) {
        errors.push({ path: `${path}.price.tiers.${j}.up_to`, message: 'tiers ascend' });
      }
    });
  });
  return errors;
}

/** JSON with object keys sorted, so a document read back from either database hashes as it was published. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v ?? null);

const hashOf = (doc: RateCardVersionDoc) =>
  createHash('sha256')
    .update(canonical([new Date(doc.effective_at).toISOString(), doc.currency, doc.note ?? null, doc.fees]))
    .digest('hex');

async function cardFor(tx: TxClient, teamId: string, doc: RateCardVersionDoc) {
  if (doc.rate_card_id) {
    const card = await findTeamCard(tx, teamId, doc.rate_card_id);
    if (!card) throw notFound('Rate card', doc.rate_card_id);
    if (card.name !== doc.rate_card_name) throw conflict(`Rate card ${card.id} is named ${card.name}, not ${doc.rate_card_name}.`);
    return card;
  }
  return upsertCardNamed(tx, teamId, doc.rate_card_name);
}

/** Publishes a version; `created` false when this exact version was already published. */
export async function publishVersion(db: Db, teamId: string, doc: RateCardVersionDoc) {
  const errors = validateFees(doc.fees);
  if (errors.length) throw new DomainError('validation-failed', `${errors[0].path}: ${errors[0].message}`, { errors });
  const content_hash = hashOf(doc);
  const existing = async () => {
    const card = doc.rate_card_id
      ? await findTeamCard(db.prisma, teamId, doc.rate_card_id)
      : await findTeamCardNamed(db.prisma, teamId, doc.rate_card_name);
    const v = card && (await findVersionBySemver(db.prisma, card.id, doc.semantic_version));
    if (!card || !v) return null;
    if (v.content_hash !== content_hash)
      throw conflict(`Rate card ${card.name} already has a different version ${doc.semantic_version}; publish a new semantic_version.`);
    return { view: versionView(card, v), created: false };
  };
  const before = await existing();
  if (before) return before;
  try {
    return await transaction(db, async (tx) => {
      const card = await cardFor(tx, teamId, doc);
      const v = await insertVersion(tx, {
        rate_card_id: card.id,
        semantic_version: doc.semantic_version,
        effective_at: new Date(doc.effective_at),
        currency: doc.currency,
        fees: doc.fees as never,
        note: doc.note ?? null,
        content_hash,
      });
      await touchCard(tx, card.id, new Date());
      return { view: versionView(card, v), created: true };
    });
  } catch (err) {
    // A publish racing this one took the semantic_version: the same content is this publish.
    const raced = isUniqueViolation(err) ? await existing() : null;
    if (raced) return raced;
    throw err;
  }
}

/** A card of the team by id or by name. */
export async function findCard(db: Db | TxClient, teamId: string, ref: string) {
  const card = await findTeamCardByRef('prisma' in db ? db.prisma : db, teamId, ref);
  if (!card) throw notFound('Rate card', ref);
  return card;
}

export async function listRateCards(db: Db, teamId: string, q: PageRequest) {
  const where = { fulfiller_team_id: teamId };
  const orderBy = [{ created_at: 'asc' as const }, { id: 'asc' as const }];
  const page = toPage(await findCardPage(db.prisma, pageArgs(q, where, orderBy)), q, undefined, orderBy);
  return { data: await cardViews(db, page.data), meta: page.meta };
}

async function cardViews(
  db: Db,
  cards: Array<{ id: string; name: string; fulfiller_team_id: string; created_at: Date; updated_at: Date }>,
) {
  const ids = cards.map((c) => c.id);
  const [versions, delegations] = await Promise.all([findCardVersions(db.prisma, ids), findCardDelegations(db.prisma, ids)]);
  const now = dbNow(db); // the app's clock (FOS_NOW): the version in force, as a charge made now picks it
  return cards.map((c) => {
    const own = versions.filter((v) => v.rate_card_id === c.id);
    const current = own.filter((v) => v.effective_at.getTime() <= now).at(-1);
    return {
      ...c,
      versions: own.map((v) => ({
        version_id: v.id,
        semantic_version: v.semantic_version,
        effective_at: v.effective_at,
        created_at: v.created_at,
      })),
      current_version_id: current?.id ?? null,
      delegation_ids: delegations.filter((d) => d.rate_card_id === c.id).map((d) => d.id),
    };
  });
}

export async function getRateCard(db: Db, teamId: string, ref: string) {
  return (await cardViews(db, [await findCard(db, teamId, ref)]))[0];
}

/** A version by id, by semantic_version, or `current` (in force now). */
export async function getVersion(db: Db, teamId: string, ref: string, version: string, now = new Date()) {
  const card = await findCard(db, teamId, ref);
  const v = version === 'current' ? await findVersionInForce(db.prisma, card.id, now) : await findVersionByRef(db.prisma, card.id, version);
  if (!v) throw notFound('Rate card version', version);
  return versionView(card, v);
}

/** The version of a card in force at `at`, compiled (once per version per process); null before its first. */
export async function versionAt(tx: TxClient, rateCardId: string, at: Date): Promise<CompiledVersion | null> {
  const v = await findVersionInForce(tx, rateCardId, at);
  if (!v) return null;
  const card = await findCardName(tx, rateCardId);
  return compiledVersion({ ...v, rate_card_name: card.name } satisfies VersionRecord);
}

/** Prices a sample event by the card's version in force at `at` (fos rate-cards test). */
export async function testRateCard(db: Db, teamId: string, ref: string, input: { event: BillableEvent; at?: string }, now: Date) {
  const card = await findCard(db, teamId, ref);
  const at = input.at ? new Date(input.at) : now;
  const version = await versionAt(db.prisma as unknown as TxClient, card.id, at);
  if (!version) throw conflict(`Rate card ${card.name} has no version in force at ${at.toISOString()}.`);
  const p = priceEvent(version, input.event);
  return {
    rate_card_id: card.id,
    version_id: version.id,
    semantic_version: version.semantic_version,
    category: p.category,
    matched: p.matched,
    pricing_step_id: p.pricing_step_id,
    calculated_amount: p.calculated_amount,
    original_amount: p.original_amount,
    quantity: p.quantity,
    currency: version.currency,
    calculation_note: p.calculation_note,
    events: p.events,
  };
}

/** Points a delegation at a card of the team (null: back to its JSON card). */
export async function linkDelegation(db: Db, teamId: string, delegationId: string, rateCardId: string | null) {
  return transaction(db, async (tx) => {
    const d = await findFulfillerDelegation(tx, teamId, delegationId);
    if (!d) throw notFound('Delegation', delegationId);
    const card = rateCardId ? await findCard(tx, teamId, rateCardId) : null;
    return linkRateCard(tx, d.id, card?.id ?? null);
  });
}

export type { VersionRecord };

import type { Db, Prisma } from '../../db/types.js';
import { notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';

// The operator's rate table for the built-in 'table' carrier adapter (carriers/table.ts).

export interface CarrierRateInput {
  carrier_id: string;
  carrier_name: string;
  service_id: string;
  service_name: string;
  amount: number;
  currency?: string;
  per_unit_weight?: number;
  max_weight?: number | null;
  weight_unit?: string;
  countries?: string[] | null;
  estimated_days?: number | null;
  delivery_date_guaranteed?: boolean;
}

type Row = Prisma.CarrierRateGetPayload<object>;

export const presentCarrierRate = (r: Row) => ({
  ...r,
  countries: Array.isArray(r.countries) ? (r.countries as string[]) : null,
});

export async function listCarrierRates(db: Db, teamId: string, page: PageRequest) {
  const orderBy = [{ carrier_name: 'asc' }, { service_name: 'asc' }, { id: 'asc' }];
  const rows = await db.prisma.carrierRate.findMany(pageArgs(page, { team_id: teamId }, orderBy));
  const p = toPage(rows, page, undefined, orderBy);
  return { data: p.data.map(presentCarrierRate), meta: p.meta };
}

export async function createCarrierRate(db: Db, teamId: string, input: CarrierRateInput) {
  const row = await db.prisma.carrierRate.create({
    data: {
      team_id: teamId,
      carrier_id: input.carrier_id,
      carrier_name: input.carrier_name,
      service_id: input.service_id,
      service_name: input.service_name,
      amount: input.amount,
      currency: (input.currency ?? 'USD').toUpperCase(),
      per_unit_weight: input.per_unit_weight ?? 0,
      max_weight: input.max_weight ?? null,
      weight_unit: input.weight_unit ?? 'G',
      countries: input.countries ? input.countries.map((c) => c.toUpperCase()) : undefined,
      estimated_days: input.estimated_days ?? null,
      delivery_date_guaranteed: input.delivery_date_guaranteed ?? false,
    },
  });
  return presentCarrierRate(row);
}

export async function deleteCarrierRate(db: Db, teamId: string, id: string) {
  const { count } = await db.prisma.carrierRate.deleteMany({ where: { id, team_id: teamId } });
  if (!count) throw notFound('Carrier rate', id);
}

import type { Db } from '../../db/types.js';

// The creation time of the record an export resumes after (`after=<id>`): the keyset walk starts
// from (created_at, id) of that record (walk.ts, cursorAfterRecord).

type Client = Db['prisma'];
const createdAt = (row: { created_at: Date } | null) => row?.created_at;

export const findRecordCreatedAt = {
  orders: async (client: Client, teamId: string, id: string) =>
    createdAt(await client.order.findFirst({ where: { id, fulfiller_team_id: teamId }, select: { created_at: true } })),
  products: async (client: Client, _teamId: string, id: string) =>
    createdAt(await client.product.findUnique({ where: { id }, select: { created_at: true } })),
  movements: async (client: Client, _teamId: string, id: string) =>
    createdAt(await client.inventoryMovement.findUnique({ where: { id }, select: { created_at: true } })),
  charges: async (client: Client, _teamId: string, id: string) =>
    createdAt(await client.charge.findUnique({ where: { id }, select: { created_at: true } })),
  packages: async (client: Client, _teamId: string, id: string) =>
    createdAt(await client.package.findUnique({ where: { id }, select: { created_at: true } })),
};

export type ExportedList = keyof typeof findRecordCreatedAt;

import { readFileSync } from 'node:fs';
import { createDb } from '../db/client.js';
import { migrate, MigrationRefused } from '../db/migrate.js';
import type { Db } from '../db/types.js';
import { DomainError, invalid } from '../domain/errors.js';
import { createKey, disableKey, findKeyTeam, listKeys, setKeyTier } from '../domain/keys/index.js';
import { createRole, rolesByName } from '../domain/keys/index.js';
import { isPermission, PERMISSIONS, type Permission } from '../contract/permissions.js';
import { teams } from '../domain/teams/index.js';
import { users } from '../domain/users/index.js';
import { validateRateCard } from '../domain/charges/index.js';
import { CliError, ExitCode } from '../shared/exit-codes.js';
import { userInfo } from 'node:os';
import { transaction } from '../db/tx.js';
import { newAuditContext, runAudited } from '../domain/audit/index.js';
import { installAuditHook } from '../domain/audit/index.js';

// `fos admin` works on the database directly (no HTTP, no key): it is how an operator makes
// teams, places and keys. Output is JSON on stdout, one document per command.

type Opts = Record<string, string | string[] | boolean | undefined>;

/** What the command printed last: the audit record's result (its target id and values). */
let printed: unknown;
const print = (value: unknown) => {
  printed = value;
  return process.stdout.write(JSON.stringify(value, null, 2) + '\n');
};

/**
 * Runs a command in an audit context (docs/audit.md): the operator at the machine is the actor
 * (CLI, the OS user); its first write transaction records it, or, for a command whose writes ran
 * outside transaction(), a transaction of its own after it succeeded. Lists record nothing.
 */
async function audited(db: Db, name: string, args: string[], o: Opts, run: () => Promise<unknown>): Promise<unknown> {
  const write = !name.endsWith('.list') && !(name === 'products.dedupe' && !o.merge);
  if (!write) return run();
  const fields = Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'passwordStdin'));
  const ctx = newAuditContext(`admin.${name}`, {
    actor: { type: 'CLI', id: null, name: `fos admin (${userInfo().username})`, teamId: typeof o.team === 'string' ? o.team : null },
    target: { type: name.split('.')[0].replace(/-/g, '_'), id: args[0] ?? null },
    fields,
    active: true,
  });
  return runAudited(ctx, async () => {
    const out = await run();
    if (!ctx.recorded) {
      const result = printed as Record<string, unknown> | undefined;
      ctx.actor!.teamId ??= typeof result?.team_id === 'string' ? result.team_id : null;
      await transaction(db, async () => result);
    }
    return out;
  });
}

async function withDb<T>(url: string, fn: (db: Db) => Promise<T>, refusedOk = false): Promise<T> {
  try {
    await migrate(url);
  } catch (err) {
    // `products dedupe` is how an operator clears what a refused migration found in the way: it
    // runs on the database as the migrations before that one left it.
    if (!(refusedOk && err instanceof MigrationRefused)) throw err;
  }
  const db = await createDb(url);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

export async function runMigrate(url: string) {
  const { applied } = await migrate(url);
  process.stderr.write(applied.length ? `Applied ${applied.length} migration(s).\n` : 'Database is up to date.\n');
  print({ applied });
}

function readRateCard(file: string): unknown {
  let card: unknown;
  try {
    card = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw invalid('rate-card', `cannot read ${file} as JSON: ${(err as Error).message}`);
  }
  const errors = validateRateCard(card);
  if (errors.length) throw invalid(errors[0].path, `${errors[0].message} (in ${file})`);
  return card;
}

function permissionsOf(values: string[]): Permission[] {
  const bad = values.filter((v) => !isPermission(v));
  if (bad.length) throw invalid('permission', `unknown permission ${bad.join(', ')}; allowed: ${PERMISSIONS.join(', ')}`);
  return values as Permission[];
}

/** The password from stdin (--password-stdin, one line, trailing newline dropped) or a hidden prompt on a TTY. */
async function readPassword(o: Opts): Promise<string> {
  if (o.passwordStdin) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  if (!process.stdin.isTTY) throw invalid('password', 'pass --password-stdin when stdin is not a terminal');
  const { password } = await import('@inquirer/prompts');
  return password({ message: 'Password', mask: '*' }, { input: process.stdin, output: process.stderr } as never);
}

async function membershipOf(db: Db, o: Opts): Promise<users.MembershipInput> {
  const roleIds = o.role ? await rolesByName(db, String(o.team), o.role as string[]) : [];
  return { power_role: (o.powerRole as users.PowerRole | undefined) ?? 'MEMBER', role_ids: roleIds };
}

export async function runAdmin(name: string, url: string, args: string[], o: Opts) {
  installAuditHook();
  try {
    await withDb(
      url,
      (db) =>
        audited(db, name, args, o, async () => {
          switch (name) {
            case 'products.dedupe': {
              const { duplicateSkuGroups, mergeDuplicateSkus } = await import('../domain/products/index.js');
              if (!o.merge) return print({ groups: await duplicateSkuGroups(db) });
              const merged = await mergeDuplicateSkus(db);
              process.stderr.write(
                `Merged ${merged.length} group(s); \`fos db migrate\` (or \`fos serve\`) can now apply the SKU index.\n`,
              );
              return print({ merged });
            }
            case 'team.create':
              return print(
                await teams.createTeam(db, {
                  name: String(o.name),
                  kind: o.kind as teams.TeamKind,
                  measurement_system: o.measurementSystem as teams.MeasurementSystem,
                }),
              );
            case 'team.list':
              return print(await teams.listTeams(db));
            case 'delegation.create':
              return print(
                await teams.createDelegation(db, {
                  merchant_team_id: String(o.merchant),
                  fulfiller_team_id: String(o.fulfiller),
                  rate_card: o.rateCard ? readRateCard(String(o.rateCard)) : undefined,
                }),
              );
            case 'delegation.list':
              if (o.team) await teams.getTeam(db, String(o.team));
              return print(await teams.listDelegations(db, o.team as string | undefined));
            case 'warehouse.create':
              return print(
                await teams.createWarehouse(db, {
                  team_id: String(o.team),
                  name: String(o.name),
                  country: o.country as string | undefined,
                  city: o.city as string | undefined,
                  zip: o.zip as string | undefined,
                  state: o.state as string | undefined,
                  address1: o.address1 as string | undefined,
                  label_format: o.labelFormat as string | undefined,
                  time_zone: o.timeZone as string | undefined,
                }),
              );
            case 'warehouse.label-format':
              return print(await teams.setWarehouseLabelFormat(db, String(args[0]), String(args[1])));
            case 'warehouse.time-zone':
              return print(await teams.setWarehouseTimeZone(db, String(args[0]), String(args[1])));
            case 'warehouse.list':
              if (o.team) await teams.getTeam(db, String(o.team));
              return print(await teams.listWarehouses(db, o.team as string | undefined));
            case 'location-type.create':
              return print(await teams.createLocationType(db, { team_id: String(o.team), name: String(o.name) }));
            case 'location-type.list':
              if (o.team) await teams.getTeam(db, String(o.team));
              return print(await teams.listLocationTypes(db, o.team as string | undefined));
            case 'role.create':
              await teams.getTeam(db, String(o.team));
              return print(
                await createRole(db, String(o.team), {
                  name: String(o.name),
                  description: o.description as string | undefined,
                  permissions: permissionsOf(o.permission as string[]),
                }),
              );
            case 'key.create': {
              await teams.getTeam(db, String(o.team));
              const roleIds = o.role ? await rolesByName(db, String(o.team), o.role as string[]) : [];
              const key = await createKey(
                db,
                String(o.team),
                {
                  name: String(o.name),
                  description: o.description as string | undefined,
                  power_role: o.powerRole as 'ADMIN' | 'MEMBER',
                  role_ids: roleIds,
                  rate_tier: Number(o.tier ?? 1),
                },
                'admin-cli',
              );
              process.stderr.write('The token is shown once; store it now.\n');
              return print(key);
            }
            case 'key.list':
              await teams.getTeam(db, String(o.team));
              return print((await listKeys(db, String(o.team), { page: 0, limit: 1000 })).data);
            case 'key.tier':
              return print(await setKeyTier(db, await findKeyTeam(db, args[0]), args[0], Number(args[1])));
            case 'key.disable':
              return print(await disableKey(db, await findKeyTeam(db, args[0]), args[0]));
            case 'user.create': {
              const password = await readPassword(o);
              if (o.team) await teams.getTeam(db, String(o.team));
              const membership = o.team ? await membershipOf(db, o) : {};
              return print(
                await users.createUser(
                  db,
                  {
                    email: String(o.email),
                    display_name: String(o.name),
                    password,
                    team_id: o.team as string | undefined,
                    ...membership,
                  },
                  'admin-cli',
                ),
              );
            }
            case 'user.list':
              if (o.team) await teams.getTeam(db, String(o.team));
              return print((await users.listUsers(db, o.team as string | undefined, { page: 0, limit: 10_000 })).data);
            case 'user.disable':
              return print(await users.disableUser(db, await users.findUserId(db, args[0])));
            case 'user.add-to-team': {
              await teams.getTeam(db, String(o.team));
              return print(await users.addUserToTeam(db, await users.findUserId(db, args[0]), String(o.team), await membershipOf(db, o)));
            }
            default:
              throw new Error(`unknown admin command ${name}`);
          }
        }),
      name === 'products.dedupe',
    );
  } catch (err) {
    // bin/fos.js takes the exit code from run()'s return value, so setting process.exitCode here
    // was overwritten with 0: raise a CliError, which run() prints as one line and maps to its code.
    if (err instanceof DomainError) {
      const code = err.kind === 'not-found' ? ExitCode.NOT_FOUND : err.kind === 'conflict' ? ExitCode.CONFLICT : ExitCode.USAGE;
      throw new CliError(err.message, code);
    }
    throw err;
  }
}

import type { Config } from '@libsql/client';
import { PrismaLibSql } from '@prisma/adapter-libsql';

// The SQLite driver: libSQL, whose prebuilt N-API binaries come from the npm registry for every
// platform and Node.js version, so `npm install` needs no compiler and downloads nothing from
// elsewhere (issue 8; better-sqlite3 builds from source when its GitHub download is unreachable,
// and then only for the Node.js whose headers are at hand).
//
// @libsql/client opens a new connection after each transaction begins (the transaction keeps the
// old one). Every one of them has foreign keys on (libSQL's default) and the busy timeout of
// `timeout`; WAL is a property of the file. The Prisma adapter queues the process's queries and
// transactions on one mutex, so a plain query never runs inside another request's transaction.

/** The Prisma adapter factory for a SQLite file. */
export function libsqlFactory(file: string, busyTimeoutMs: number) {
  return new PrismaLibSql({ url: `file:${file}`, timeout: busyTimeoutMs } as Config);
}

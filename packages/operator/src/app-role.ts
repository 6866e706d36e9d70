/**
 * The least-privilege PostgreSQL role the services (api, mcp, console, worker) connect as, beside the
 * owner that migrates (pure: names in, SQL text out; app-role.service.ts runs it). The role may read and
 * write rows (select, insert, update, delete) and use sequences, in the migrated schema only: no DDL
 * (no create, alter or drop: it owns nothing and may not create in the schema), no TRUNCATE, no
 * writes to the migrations' own tables. Tables later migrations add get the same grants (default
 * privileges of the owner). Idempotent: every run resets the role's table grants to exactly these.
 */

import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';

/** A plain lowercase identifier: nothing to escape in it, and safe in logs. */
const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function isAppRoleName(name: string): boolean {
  return ROLE_NAME.test(name);
}

/**
 * Where the grants are made: the owner's connection tells (current_database(), current_schema,
 * current_user). `passwordVerifier`: the role's password, as the SCRAM verifier PostgreSQL stores.
 */
export type GrantTarget = {
  role: string;
  database: string;
  schema: string;
  owner: string;
  passwordVerifier?: string;
};

/** The role is the owner itself: granting it less would take the migrations' rights away. */
export class RoleIsOwnerError extends Error {
  constructor() {
    super(
      'the role must not be the owner that runs the migrations (set MIGRATION_DATABASE_URL to the owner)',
    );
    this.name = 'RoleIsOwnerError';
  }
}

const SCRAM_ITERATIONS = 4096;

/**
 * The SCRAM-SHA-256 verifier of a password (RFC 5802/7677, PostgreSQL's stored form), so the password
 * itself is never sent in a statement a server log could keep.
 */
export function scramSha256Verifier(password: string, salt: Buffer): string {
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, SCRAM_ITERATIONS, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  const base64 = (bytes: Buffer) => bytes.toString('base64');
  return `SCRAM-SHA-256$${SCRAM_ITERATIONS}:${base64(salt)}$${base64(storedKey)}:${base64(serverKey)}`;
}

/** The migrations' bookkeeping (kysely): the services may read it, never write it. */
export const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock'] as const;

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The statements, in order, for one database (the role itself is created once per server). */
export function appRoleStatements(target: GrantTarget): string[] {
  if (!isAppRoleName(target.role)) throw new Error('role must be a lowercase identifier ([a-z_][a-z0-9_]*)');
  if (target.role === target.owner) throw new RoleIsOwnerError();
  const role = quoteIdentifier(target.role);
  const schema = quoteIdentifier(target.schema);
  const owner = quoteIdentifier(target.owner);
  const dml = 'select, insert, update, delete';
  return [
    `do $$ begin
       if not exists (select from pg_roles where rolname = ${quoteLiteral(target.role)}) then
         create role ${role} login;
       end if;
     end $$`,
    `alter role ${role} nosuperuser nocreatedb nocreaterole noreplication nobypassrls`,
    // A verifier holds only base64 characters, `$` and `:`: nothing to escape.
    ...(target.passwordVerifier === undefined
      ? []
      : [`alter role ${role} password ${quoteLiteral(target.passwordVerifier)}`]),
    `grant connect on database ${quoteIdentifier(target.database)} to ${role}`,
    `revoke create on schema ${schema} from ${role}`,
    `grant usage on schema ${schema} to ${role}`,
    `revoke all on all tables in schema ${schema} from ${role}`,
    `grant ${dml} on all tables in schema ${schema} to ${role}`,
    `revoke insert, update, delete on table ${MIGRATION_TABLES.map(quoteIdentifier).join(', ')} from ${role}`,
    `grant usage, select on all sequences in schema ${schema} to ${role}`,
    `alter default privileges for role ${owner} in schema ${schema} grant ${dml} on tables to ${role}`,
    `alter default privileges for role ${owner} in schema ${schema} grant usage, select on sequences to ${role}`,
  ];
}

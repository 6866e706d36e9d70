import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  RoleIsOwnerError,
  appRoleStatements,
  isAppRoleName,
  quoteIdentifier,
  scramSha256Verifier,
} from '../src/app-role.js';

const target = { role: 'directory_app', database: 'doctor_directory', schema: 'public', owner: 'directory' };

describe('appRoleStatements', () => {
  it('grants rows and sequences only: no TRUNCATE, no create in the schema, nothing to the owner', () => {
    const grants = appRoleStatements(target).filter((statement) =>
      /^(?:grant|alter default)/.test(statement),
    );
    expect(grants.join('\n')).not.toMatch(/truncate|all privileges|create|references|trigger/i);
    expect(appRoleStatements(target)).toContain('revoke create on schema "public" from "directory_app"');
    expect(appRoleStatements(target)).toContain(
      'grant select, insert, update, delete on all tables in schema "public" to "directory_app"',
    );
  });

  it('refuses a role name that would need quoting, and the owner itself', () => {
    for (const name of ['Directory', 'app;drop', 'a"b', '', '1app', 'x'.repeat(64)]) {
      expect(isAppRoleName(name), name).toBe(false);
      expect(() => appRoleStatements({ ...target, role: name })).toThrow(/lowercase identifier/);
    }
    expect(() => appRoleStatements({ ...target, role: 'directory' })).toThrow(RoleIsOwnerError);
  });

  it('quotes the names the server reports', () => {
    expect(quoteIdentifier('my "db"')).toBe('"my ""db"""');
    expect(appRoleStatements({ ...target, database: 'odd"name' })).toContain(
      'grant connect on database "odd""name" to "directory_app"',
    );
  });
});

describe('scramSha256Verifier', () => {
  it('stores what lets a server check the exchange of RFC 7677 (user "user", password "pencil")', () => {
    const verifier = scramSha256Verifier('pencil', Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64'));
    const match = /^SCRAM-SHA-256\$4096:W22ZaJ0SNY7soEsUEjb6gQ==\$([\w+/=]+):([\w+/=]+)$/.exec(verifier);
    expect(match).not.toBeNull();
    const [storedKey, serverKey] = [
      Buffer.from(match?.[1] ?? '', 'base64'),
      Buffer.from(match?.[2] ?? '', 'base64'),
    ];
    const nonce = 'rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0';
    const authMessage = `n=user,r=rOprNGfwEbeRWgbNEkqO,r=${nonce},s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096,c=biws,r=${nonce}`;
    // The server's proof of the RFC's exchange, and the client's proof checked as a server does.
    expect(createHmac('sha256', serverKey).update(authMessage).digest('base64')).toBe(
      '6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=',
    );
    const clientProof = Buffer.from('dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=', 'base64');
    const clientSignature = createHmac('sha256', storedKey).update(authMessage).digest();
    const clientKey = Buffer.from(clientProof.map((byte, at) => byte ^ (clientSignature[at] ?? 0)));
    expect(createHash('sha256').update(clientKey).digest()).toEqual(storedKey);
  });

  it('goes into the statements as the verifier, never the password', () => {
    const passwordVerifier = scramSha256Verifier('s3cret-pass', Buffer.alloc(16, 1));
    const statements = appRoleStatements({ ...target, passwordVerifier }).join('\n');
    expect(statements).toContain(`alter role "directory_app" password '${passwordVerifier}'`);
    expect(statements).not.toContain('s3cret-pass');
  });
});

import { describe, expect, it } from 'vitest';
import { appRoleStatements, isAppRoleName, quoteIdentifier } from '../src/app-role.js';

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
    expect(() => appRoleStatements({ ...target, role: 'directory' })).toThrow(/owner/);
  });

  it('quotes the names the server reports', () => {
    expect(quoteIdentifier('my "db"')).toBe('"my ""db"""');
    expect(appRoleStatements({ ...target, database: 'odd"name' })).toContain(
      'grant connect on database "odd""name" to "directory_app"',
    );
  });
});

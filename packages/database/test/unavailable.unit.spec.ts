import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailableError } from '../src/connection.js';

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('isDatabaseUnavailableError', () => {
  it('recognises a database that does not answer (refused, timed out, cancelled, lost)', () => {
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated due to connection timeout'),
      new Error('Connection terminated unexpectedly'),
      new Error('Query read timeout'),
      withCode('canceling statement due to statement timeout', '57014'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('terminating connection due to idle-in-transaction timeout', '25P03'),
      withCode('sorry, too many clients already', '53300'),
      withCode('connection failure', '08006'),
    ])
      expect(isDatabaseUnavailableError(error), error.message).toBe(true);
  });

  it('leaves errors in the request or in our code alone', () => {
    for (const error of [
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('syntax error at or near "selec"', '42601'),
      withCode('invalid input syntax for type uuid', '22P02'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      'timeout exceeded when trying to connect',
      null,
    ])
      expect(isDatabaseUnavailableError(error)).toBe(false);
  });
});

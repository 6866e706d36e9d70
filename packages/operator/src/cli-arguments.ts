import { InvalidArgumentError } from 'commander';

// Parsers of the operator commands' option values (commander's argParser): a refused value is a usage
// error, which `directory` exits 2 on (docs/operations.md, "Exit codes").

export function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('must be a positive integer');
  return parsed;
}

export function nonNegativeInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new InvalidArgumentError('must be a whole number, 0 or more');
  return parsed;
}

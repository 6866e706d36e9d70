import type { OperationOutcome } from './fhir-resources.js';

/**
 * An error of /fhir/R4 as FHIR's OperationOutcome. The API chooses every error once, as a problem
 * (its status, detail and the parameters at fault, never a value the client sent); this only renders
 * it: one issue for the problem, and one per parameter at fault.
 */

export type ProblemLike = {
  status: number;
  detail: string;
  errors: ReadonlyArray<{ parameter: string; reason: string }>;
};

const ISSUE_CODES: Readonly<Record<number, string>> = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  405: 'not-supported',
  406: 'not-supported',
  415: 'not-supported',
  429: 'throttled',
  503: 'transient',
};

export function operationOutcomeOf(problem: ProblemLike): OperationOutcome {
  const code = ISSUE_CODES[problem.status] ?? (problem.status >= 500 ? 'exception' : 'processing');
  return {
    resourceType: 'OperationOutcome',
    issue: [
      { severity: 'error', code, diagnostics: problem.detail },
      ...problem.errors.map((error) => ({
        severity: 'error' as const,
        code,
        diagnostics: `${error.parameter}: ${error.reason}`,
      })),
    ],
  };
}

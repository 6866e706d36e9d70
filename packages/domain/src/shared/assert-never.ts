/** The `default` branch of an exhaustive switch: adding a union member fails to compile until handled. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}

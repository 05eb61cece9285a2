import { UsageError } from './usage.ts';

/** parseArgs throws TypeErrors for unknown or malformed options: those are usage errors. */
export function parseOrUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
  }
}

import { COPILOT_JSONL_FAMILY } from './copilot-jsonl.catalog';

/**
 * The provider Copilot usage is booked to when the CLI names none: the `copilot` identity's (GitHub
 * serves and bills the models Copilot picks), so a usage row never has an empty provider.
 */
export const COPILOT_DEFAULT_PROVIDER: string = COPILOT_JSONL_FAMILY.identities.find((entry) => entry.identity === 'copilot')?.provider ?? 'github';

// How Copilot 1.0.102 says it does not know who serves a BYOK model: as good as no name.
const UNNAMED_PROVIDERS: ReadonlySet<string> = new Set(['', 'other']);

/** The provider the CLI named for the model, else `fallback`. */
export function copilotUsageProvider(named: string | null | undefined, fallback: string = COPILOT_DEFAULT_PROVIDER): string {
  const provider = typeof named === 'string' ? named.trim() : '';
  return UNNAMED_PROVIDERS.has(provider.toLowerCase()) ? fallback : provider;
}

/** The most model ids kept from one CLI (the `runtime.registered` contract allows no more). */
export const MAX_DISCOVERED_MODELS = 500;

/** The longest model id kept (the contract's bound). */
export const MAX_MODEL_ID_LENGTH = 200;

// `anthropic/claude-sonnet-4-5`, `openrouter/qwen/qwen3-coder:free`, `vertex/claude@20250514`.
const MODEL_ID = /^[A-Za-z0-9._:/@-]+$/;

export interface ParsedModelList {
  /** Model ids in the order the CLI printed them, each once. */
  readonly models: string[];
  /** Non-empty lines that were not a model id (banners, warnings, ids too long). */
  readonly skippedLines: number;
  /** Distinct ids left out beyond MAX_DISCOVERED_MODELS. */
  readonly overLimit: number;
}

/** Reads a CLI's model listing: one model id per line, blank lines ignored, anything else counted. */
export function parseModelList(output: string, limit = MAX_DISCOVERED_MODELS): ParsedModelList {
  const models: string[] = [];
  const seen = new Set<string>();
  let skippedLines = 0;
  let overLimit = 0;
  for (const rawLine of output.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '') continue;
    if (line.length > MAX_MODEL_ID_LENGTH || !MODEL_ID.test(line)) {
      skippedLines += 1;
      continue;
    }
    if (seen.has(line)) continue;
    seen.add(line);
    if (models.length < limit) models.push(line);
    else overLimit += 1;
  }
  return { models, skippedLines, overLimit };
}

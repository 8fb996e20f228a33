import {
  DSH_ERROR_CODES,
  DSH_PROTOCOL_VERSION,
  type DshCancelCommand,
  type DshExecuteCommand,
  type DshMcpServer,
  type DshModelSelection,
} from './dsh-wire.types';

/** A model id DSH cannot be given: it must be `provider/model` as its catalog names it. */
export class DshInvalidModelError extends Error {
  readonly code = DSH_ERROR_CODES.invalidModel;

  constructor(model: string, reason: string) {
    super(`DSH model "${model}" ${reason}: use the provider/model id DSH advertises`);
    this.name = 'DshInvalidModelError';
  }
}

/**
 * Splits `provider/model` (each part URL-escaped, so a slash inside either survives) into the
 * execute frame's model selection, as the public client does.
 */
export function parseDshModelId(model: string): DshModelSelection {
  const trimmed = model.trim();
  const slash = trimmed.indexOf('/');
  if (slash <= 0 || slash === trimmed.length - 1) throw new DshInvalidModelError(model, 'has no provider/model form');
  try {
    const provider = decodeURIComponent(trimmed.slice(0, slash)).trim();
    const id = decodeURIComponent(trimmed.slice(slash + 1)).trim();
    if (provider === '' || id === '') throw new DshInvalidModelError(model, 'has an empty provider or model part');
    return { provider, id };
  } catch (error) {
    if (error instanceof DshInvalidModelError) throw error;
    throw new DshInvalidModelError(model, 'is not validly escaped');
  }
}

export interface DshExecuteInput {
  readonly requestId: string;
  readonly cwd: string;
  readonly prompt: string;
  readonly resumeSessionId?: string;
  readonly model?: DshModelSelection;
  readonly reasoningEffort?: string;
  readonly mcpServers?: readonly DshMcpServer[];
}

/** The one request of a run; absent options are left out, `mcp_servers` is always a list. */
export function buildDshExecuteCommand(input: DshExecuteInput): DshExecuteCommand {
  return {
    v: DSH_PROTOCOL_VERSION,
    type: 'execute',
    request_id: input.requestId,
    cwd: input.cwd,
    prompt: input.prompt,
    ...(input.resumeSessionId ? { resume_session_id: input.resumeSessionId } : {}),
    ...(input.model ? { model: input.model } : {}),
    ...(input.reasoningEffort ? { reasoning_effort: input.reasoningEffort } : {}),
    mcp_servers: input.mcpServers ?? [],
  };
}

export function buildDshCancelCommand(requestId: string): DshCancelCommand {
  return { v: DSH_PROTOCOL_VERSION, type: 'cancel', request_id: requestId };
}

/** One stdin line. */
export const dshLine = (command: DshExecuteCommand | DshCancelCommand): string => `${JSON.stringify(command)}\n`;

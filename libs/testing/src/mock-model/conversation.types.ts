/**
 * The neutral shapes every model API request is normalized into, and the decision the mock takes
 * for it. Encoders turn a decision back into one API's wire format.
 */

export type ModelApi = 'anthropic-messages' | 'openai-responses' | 'openai-chat' | 'gemini';

/** A JSON schema as the clients send it (Gemini may spell types in upper case). */
export type JsonSchema = { readonly [key: string]: unknown };

export type ConversationPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tool-call'; readonly callId: string; readonly name: string; readonly arguments: unknown }
  | { readonly kind: 'tool-result'; readonly callId: string; readonly output: string; readonly isError: boolean };

export type ConversationRole = 'system' | 'user' | 'assistant';

export interface ConversationTurn {
  readonly role: ConversationRole;
  readonly parts: readonly ConversationPart[];
}

/**
 * A tool the client offers. `local-shell` is the Responses API's built-in shell tool, which has no
 * schema and takes an argv array.
 */
export interface ToolOffer {
  readonly kind: 'function' | 'local-shell';
  readonly name: string;
  readonly parameters: JsonSchema | undefined;
  /** The Responses API namespace the tool was offered in (Codex groups an MCP server's tools as `mcp__<server>`); a call names it. */
  readonly namespace?: string;
}

/** Present when the request asks for a JSON answer; `schema` when it names the shape. */
export interface JsonDemand {
  readonly schema: JsonSchema | undefined;
}

export interface NormalizedConversation {
  readonly api: ModelApi;
  readonly model: string;
  readonly stream: boolean;
  readonly system: readonly string[];
  readonly turns: readonly ConversationTurn[];
  readonly tools: readonly ToolOffer[];
  readonly jsonDemand: JsonDemand | undefined;
  /** The tool the request forces the model to call (`tool_choice` naming one tool), if any. */
  readonly forcedToolName: string | undefined;
}

export type TurnDecision =
  | {
      readonly kind: 'text';
      readonly text: string;
      /** The text as streamed, in order; joined they equal `text`. */
      readonly deltas: readonly string[];
      /** Pause before each delta; above zero only for the slow scenario. */
      readonly deltaIntervalMilliseconds: number;
    }
  | {
      readonly kind: 'tool-call';
      readonly tool: ToolOffer;
      readonly arguments: { readonly [key: string]: unknown };
      /** The shell command the call runs, for logs and tests; undefined for a forced non-shell tool. */
      readonly command: string | undefined;
    }
  | { readonly kind: 'json'; readonly value: unknown; readonly text: string }
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly message: string;
      /** Absent: a plain HTTP error of `status`. */
      readonly failure?: 'context-overflow' | 'connection-reset';
      /** Set by an `error-once` marker: the server fails only the first request with this key. */
      readonly onceKey?: string;
    };

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** What an encoder needs besides the decision; ids come from outside so encoders stay pure. */
export interface EncodingContext {
  readonly model: string;
  readonly usage: TokenUsage;
  readonly createdAtSeconds: number;
  readonly newId: (prefix: string) => string;
}

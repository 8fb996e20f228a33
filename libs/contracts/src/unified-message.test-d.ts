import type { z } from 'zod';
import type { Equal, Expect } from './type-equality.helper';
import type {
  AgentMessage,
  AgentMessageType,
  ErrorMessage,
  JsonValue,
  LogMessage,
  NoticeMessage,
  StatusMessage,
  TextMessage,
  ThinkingMessage,
  ToolResultMessage,
  ToolUseMessage,
  UsageMessage,
} from './unified-message.schema';
import type {
  agentMessageSchema,
  errorMessageSchema,
  logMessageSchema,
  noticeMessageSchema,
  statusMessageSchema,
  textMessageSchema,
  thinkingMessageSchema,
  toolResultMessageSchema,
  toolUseMessageSchema,
  usageMessageSchema,
} from './unified-message.schema';
import type { AdapterMetadata, Actor, TokenUsage, actorSchema, adapterMetadataSchema, tokenUsageSchema } from './shared-fields.schema';

export type UnifiedMessageTypeTests = [
  Expect<Equal<z.infer<typeof textMessageSchema>, TextMessage>>,
  Expect<Equal<z.infer<typeof thinkingMessageSchema>, ThinkingMessage>>,
  Expect<Equal<z.infer<typeof toolUseMessageSchema>, ToolUseMessage>>,
  Expect<Equal<z.infer<typeof toolResultMessageSchema>, ToolResultMessage>>,
  Expect<Equal<z.infer<typeof statusMessageSchema>, StatusMessage>>,
  Expect<Equal<z.infer<typeof errorMessageSchema>, ErrorMessage>>,
  Expect<Equal<z.infer<typeof logMessageSchema>, LogMessage>>,
  Expect<Equal<z.infer<typeof usageMessageSchema>, UsageMessage>>,
  Expect<Equal<z.infer<typeof noticeMessageSchema>, NoticeMessage>>,
  Expect<Equal<z.infer<typeof agentMessageSchema>, AgentMessage>>,
  // Input side too: the schemas have no transforms, so what producers write is what consumers read.
  Expect<Equal<z.input<typeof agentMessageSchema>, AgentMessage>>,
  Expect<Equal<AgentMessage['type'], AgentMessageType>>,
  Expect<Equal<ToolUseMessage['input'], JsonValue>>,
  Expect<Equal<z.infer<typeof adapterMetadataSchema>, AdapterMetadata>>,
  Expect<Equal<z.infer<typeof actorSchema>, Actor>>,
  Expect<Equal<z.infer<typeof tokenUsageSchema>, TokenUsage>>,
  // A usage message is exactly token usage plus the discriminator and the metadata bag.
  Expect<Equal<Omit<UsageMessage, 'type' | 'metadata'>, Omit<TokenUsage, never>>>,
];

// Vendor extras have one place to go.
export const metadataIsTheOnlyExtension: TextMessage = {
  type: 'text',
  text: 'hello',
  metadata: { 'claude-stream-json': { stopReason: 'end_turn' } },
};

export const vendorFieldsAreRejected: TextMessage = {
  type: 'text',
  text: 'hello',
  // @ts-expect-error vendor fields never become top-level fields
  stopReason: 'end_turn',
};

export interface ChatAttachment {
  readonly name: string;
  readonly url?: string | undefined;
  readonly mediaType?: string | undefined;
}

/** The prompt of a chat task: the user's message as written, then the names of its attachments. */
export function buildChatPrompt(input: { readonly body: string; readonly attachments: readonly ChatAttachment[] }): string {
  if (input.attachments.length === 0) return input.body;
  const lines = input.attachments.map((attachment) => {
    const details = [attachment.mediaType, attachment.url].filter((detail): detail is string => detail !== undefined);
    return `- ${attachment.name}${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
  });
  return `${input.body}\n\nAttachments:\n${lines.join('\n')}`;
}

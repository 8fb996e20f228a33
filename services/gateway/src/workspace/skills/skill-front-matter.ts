import { parse } from 'yaml';

export type FrontMatter = { readonly kind: 'none' } | { readonly kind: 'fields'; readonly name?: string; readonly description?: string } | { readonly kind: 'invalid'; readonly reason: string };

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

/** The Agent Skills front matter of a SKILL.md (`---` YAML `---` at the top), when it has one. */
export function readSkillFrontMatter(skillMarkdown: string): FrontMatter {
  const match = FRONT_MATTER.exec(skillMarkdown);
  if (!match) return { kind: 'none' };
  let fields: unknown;
  try {
    fields = parse(match[1] ?? '');
  } catch (error) {
    return { kind: 'invalid', reason: error instanceof Error ? error.message.split('\n')[0] ?? 'unreadable YAML' : 'unreadable YAML' };
  }
  if (fields === null || fields === undefined) return { kind: 'fields' };
  if (typeof fields !== 'object' || Array.isArray(fields)) return { kind: 'invalid', reason: 'the front matter is not a YAML mapping' };
  const { name, description } = fields as Record<string, unknown>;
  if (name !== undefined && typeof name !== 'string') return { kind: 'invalid', reason: '`name` is not a string' };
  if (description !== undefined && typeof description !== 'string') return { kind: 'invalid', reason: '`description` is not a string' };
  return { kind: 'fields', ...(name === undefined ? {} : { name }), ...(description === undefined ? {} : { description: description.trim() }) };
}

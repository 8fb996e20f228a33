export interface MentionableAgent {
  readonly id: string;
  readonly name: string;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The agents an `@name` in the body mentions, in the order they first appear, each once.
 * Names match case-insensitively and whole (`@Fix` does not mention `Fixer`, the longest name
 * wins when one is a prefix of another); an `@` inside a word (`a@b.c`) is not a mention.
 */
export function parseMentions(body: string, agents: readonly MentionableAgent[]): string[] {
  const byName = new Map<string, string>();
  for (const agent of agents) byName.set(agent.name.toLowerCase(), agent.id);
  if (byName.size === 0) return [];
  const names = [...byName.keys()].sort((left, right) => right.length - left.length).map(escapeRegExp);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_@.])@(${names.join('|')})(?![\\p{L}\\p{N}_-])`, 'giu');
  const mentioned: string[] = [];
  for (const match of body.matchAll(pattern)) {
    const id = byName.get(match[1]!.toLowerCase());
    if (id !== undefined && !mentioned.includes(id)) mentioned.push(id);
  }
  return mentioned;
}

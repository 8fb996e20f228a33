import type { AutopilotTrigger } from './autopilot.schemas';

/** The payload is shown pretty-printed up to this many characters; the rest is cut with a note. */
export const PROMPT_PAYLOAD_MAX_CHARACTERS = 16_000;

export interface AutopilotPromptInput {
  readonly autopilot: { readonly id: string; readonly name: string; readonly instructions: string };
  readonly trigger: AutopilotTrigger;
  /** The scheduled minute, or when a manual or webhook firing arrived. */
  readonly firedAt: Date;
  /** Undefined: the firing carried none (always so for a schedule). */
  readonly payload: unknown;
}

const WHY: Record<AutopilotTrigger, string> = {
  schedule: 'its schedule named this minute',
  manual: 'someone ran it by hand',
  webhook: 'its webhook was called',
};

/** `YYYY-MM-DD HH:MM UTC`: an issue title reads better without seconds and a `T`. */
export function minuteLabel(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function payloadSection(payload: unknown): string {
  const json = JSON.stringify(payload, null, 2);
  const shown = json.length <= PROMPT_PAYLOAD_MAX_CHARACTERS ? json : `${json.slice(0, PROMPT_PAYLOAD_MAX_CHARACTERS)}\n[... ${json.length - PROMPT_PAYLOAD_MAX_CHARACTERS} more characters]`;
  return `## Payload\n\`\`\`json\n${shown}\n\`\`\``;
}

/**
 * The prompt of an autopilot firing (and the description of the issue it creates in `create_issue`
 * mode): which autopilot, why it runs now, its instructions, then the payload the firing carried.
 */
export function buildAutopilotPrompt(input: AutopilotPromptInput): string {
  const { autopilot, trigger, firedAt } = input;
  const sections = [
    `# Autopilot: ${autopilot.name}`,
    `Autopilot id: ${autopilot.id}\nTrigger: ${trigger} (${WHY[trigger]})\nFired for: ${firedAt.toISOString()}`,
    `## Instructions\n${autopilot.instructions}`,
  ];
  if (input.payload !== undefined) sections.push(payloadSection(input.payload));
  return sections.join('\n\n');
}

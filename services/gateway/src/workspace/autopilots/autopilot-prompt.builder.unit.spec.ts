import { buildAutopilotPrompt, minuteLabel, PROMPT_PAYLOAD_MAX_CHARACTERS } from './autopilot-prompt.builder';

const autopilot = { id: 'ap-1', name: 'Nightly triage', instructions: 'Triage the new issues.' };
const firedAt = new Date('2030-01-07T09:00:00.000Z');

describe('buildAutopilotPrompt', () => {
  it('names the autopilot and why it runs, then its instructions; no payload section without one', () => {
    const prompt = buildAutopilotPrompt({ autopilot, trigger: 'schedule', firedAt, payload: undefined });
    expect(prompt).toBe(
      '# Autopilot: Nightly triage\n\nAutopilot id: ap-1\nTrigger: schedule (its schedule named this minute)\nFired for: 2030-01-07T09:00:00.000Z\n\n## Instructions\nTriage the new issues.',
    );
  });

  it('adds the payload as pretty JSON, null included, cut at the cap', () => {
    expect(buildAutopilotPrompt({ autopilot, trigger: 'webhook', firedAt, payload: { ref: 'main', commits: 2 } })).toContain(
      '## Payload\n```json\n{\n  "ref": "main",\n  "commits": 2\n}\n```',
    );
    expect(buildAutopilotPrompt({ autopilot, trigger: 'manual', firedAt, payload: null })).toContain('```json\nnull\n```');
    const long = buildAutopilotPrompt({ autopilot, trigger: 'manual', firedAt, payload: 'x'.repeat(PROMPT_PAYLOAD_MAX_CHARACTERS + 100) });
    expect(long).toContain('[... 102 more characters]');
    expect(long.length).toBeLessThan(PROMPT_PAYLOAD_MAX_CHARACTERS + 400);
  });

  it('labels a minute for issue titles', () => {
    expect(minuteLabel(firedAt)).toBe('2030-01-07 09:00 UTC');
  });
});

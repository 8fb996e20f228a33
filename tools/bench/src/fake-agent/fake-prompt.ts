/** What the fake agent does, read from its prompt: `[[fake events=<n> rate=<per s>]]`. */
export interface FakeAgentScript {
  /** Text messages to emit before the result. */
  readonly events: number;
  /** Emission rate, messages per second. */
  readonly rate: number;
}

const SCRIPT_PATTERN = /\[\[fake events=(\d+) rate=(\d+)\]\]/;

export function fakePrompt(script: FakeAgentScript): string {
  return `[[fake events=${script.events} rate=${script.rate}]]`;
}

/** A prompt without a script emits 10 messages at 100/s. */
export function readFakePrompt(prompt: string): FakeAgentScript {
  const match = SCRIPT_PATTERN.exec(prompt);
  return { events: Number(match?.[1] ?? 10), rate: Math.max(1, Number(match?.[2] ?? 100)) };
}

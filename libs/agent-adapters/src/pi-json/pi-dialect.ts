/**
 * The Pi JSON family: Pi (`pi`, @mariozechner/pi-coding-agent) and its fork Oh-My-Pi (`omp`,
 * @oh-my-pi/pi-coding-agent, a Bun program) print the same `--mode json` event stream. What differs
 * is how a session is resumed, how a refused resume reads, where custom models live and a few
 * extra events omp prints.
 */
export const PI_DIALECT_IDS = ['pi', 'omp'] as const;
export type PiDialectId = (typeof PI_DIALECT_IDS)[number];

export interface PiDialect {
  readonly id: PiDialectId;
  /** Key of this family's entries in a message's `metadata` bag. */
  readonly adapterId: string;
  /** The flag that opens an existing session by id (or by file path). */
  readonly resumeFlag: string;
  /** How the CLI refuses a resume: in prose on stderr (or plain stdout), then it exits. */
  readonly resumeRejectedPattern: RegExp;
  /** Custom providers file inside the agent directory (`PI_CODING_AGENT_DIR`). */
  readonly modelsFileName: string;
  /** Events that carry nothing the timeline keeps (streaming deltas, lifecycle, UI state). */
  readonly quietEvents: ReadonlySet<string>;
}

const PI_QUIET_EVENTS = [
  'agent_start',
  'turn_start',
  'turn_end',
  'message_start',
  'message_update',
  'tool_execution_update',
  'queue_update',
  'session_info_changed',
  'thinking_level_changed',
];

export const PI_DIALECTS: Readonly<Record<PiDialectId, PiDialect>> = {
  pi: {
    id: 'pi',
    adapterId: 'pi-json',
    resumeFlag: '--session',
    // `No session found matching '<id>'` (exit 1). An id that only exists under another cwd makes Pi
    // ask on stdin whether to fork it; unattended that reads as "no" and it prints `Aborted.`.
    resumeRejectedPattern: /No session found matching|Session found in different project/i,
    modelsFileName: 'models.json',
    quietEvents: new Set(PI_QUIET_EVENTS),
  },
  omp: {
    id: 'omp',
    adapterId: 'omp-json',
    // omp's `--session` is an alias of `--resume <id|path>`.
    resumeFlag: '--resume',
    // `Error: Session "<id>" not found.` (exit 1).
    resumeRejectedPattern: /Session "[^"]*" not found/i,
    // omp reads models.yml and migrates a models.json it finds; JSON is valid YAML.
    modelsFileName: 'models.yml',
    quietEvents: new Set([
      ...PI_QUIET_EVENTS,
      'tool_stream_update',
      'model_changed',
      'config_warnings_changed',
      'advisor_cost_changed',
      'advisor_yielded',
      'todo_reminder',
      'todo_auto_clear',
      'goal_updated',
      'irc_message',
    ]),
  },
};

export function piDialect(id: PiDialectId = 'pi'): PiDialect {
  return PI_DIALECTS[id];
}

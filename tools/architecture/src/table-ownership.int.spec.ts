import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tableTrespasses, trespassesIn } from './table-ownership';
import { workspaceRoot } from './workspace-lint';

describe('table ownership', () => {
  it('finds no SQL naming a table, and no use of its entity, outside the table owner', () => {
    expect(tableTrespasses()).toEqual([]);
  });

  it('fails on a probe in the gateway that reads the queue table', () => {
    const probe = 'services/gateway/src/lint-probe-table-owner.ts';
    writeFileSync(path.join(workspaceRoot, probe), "export const probe = `select status\n  from agent_task_queue where task_id = $1`;\n");
    try {
      expect(tableTrespasses()).toEqual([{ file: probe, table: 'agent_task_queue', owner: 'queue', line: 2 }]);
    } finally {
      rmSync(path.join(workspaceRoot, probe));
    }
  });

  it('tells writes, joins and entities apart from prose, and lets the owner and its schema folder be', () => {
    const source = [
      "insert into task_usage (task_id) values ($1)",
      "select 1 from issue i join chat_session s on s.id = i.id",
      "manager.getRepository(ProcessedCommandEntity)",
      "// a task_message row, the agent_task_queue view",
    ].join('\n');
    expect(trespassesIn('services/daemon/src/probe.ts', source).map(({ table, line }) => `${line}:${table}`).sort()).toEqual(
      ['1:task_usage', '2:chat_session', '2:issue', '3:ProcessedCommandEntity'].sort(),
    );
    expect(trespassesIn('services/transcript/src/probe.ts', 'insert into task_usage (task_id) values ($1)')).toEqual([]);
    expect(trespassesIn('libs/persistence/src/schema/queue/probe.reader.ts', 'select 1 from agent_task_queue')).toEqual([]);
    expect(trespassesIn('libs/persistence/src/schema/queue/probe.reader.ts', 'select 1 from task_message')).toHaveLength(1);
  });
});

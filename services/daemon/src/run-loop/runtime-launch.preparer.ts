import type { ClaimedTask } from '@switchyard/contracts';
import { prepareLaunchEnvironment } from '@switchyard/agent-adapters/wing';
import type { DetectedRuntime } from '../runtimes/runtime-detector';
import { launchTargetOf } from './runtime-target';

/**
 * What the runtime's CLI needs around it for this task (launcher variables, its config files
 * under the runtime's HOME), as the adapters' wing prepares it. The HOME is shared by the
 * runtime's tasks so resumes find the CLI's session store.
 */
export function prepareRuntimeLaunch(runtime: DetectedRuntime, task: ClaimedTask, home: string): Promise<Record<string, string>> {
  return prepareLaunchEnvironment({ target: launchTargetOf(runtime), agent: task.agent, home });
}

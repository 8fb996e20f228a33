import type { z } from 'zod';
import type { Equal, Expect } from './type-equality.helper';
import type {
  AutopilotTaskSource,
  ChatTaskSource,
  IssueTaskSource,
  QuickCreateTaskSource,
  TaskSource,
  autopilotTaskSourceSchema,
  chatTaskSourceSchema,
  issueTaskSourceSchema,
  quickCreateTaskSourceSchema,
  taskSourceSchema,
} from './task-source.schema';
import type { TaskFailureReason, TaskState, taskFailureReasonSchema, taskStateSchema } from './task-state';
import type { ProtocolFamily, protocolFamilySchema } from './runtime-events.schema';
import type { RuntimeProfile, runtimeProfileSchema } from './runtime-profile.schema';
import type { CommandError, CommandErrorCode, commandErrorCodeSchema, commandErrorSchema } from './command-reply.schema';
import type { TraceContextFields, traceContextFieldsSchema } from './trace-context.schema';

export type SharedTypeTests = [
  Expect<Equal<z.infer<typeof issueTaskSourceSchema>, IssueTaskSource>>,
  Expect<Equal<z.infer<typeof chatTaskSourceSchema>, ChatTaskSource>>,
  Expect<Equal<z.infer<typeof autopilotTaskSourceSchema>, AutopilotTaskSource>>,
  Expect<Equal<z.infer<typeof quickCreateTaskSourceSchema>, QuickCreateTaskSource>>,
  Expect<Equal<z.infer<typeof taskSourceSchema>, TaskSource>>,
  Expect<Equal<z.infer<typeof taskStateSchema>, TaskState>>,
  Expect<Equal<z.infer<typeof taskFailureReasonSchema>, TaskFailureReason>>,
  Expect<Equal<z.infer<typeof protocolFamilySchema>, ProtocolFamily>>,
  Expect<Equal<z.infer<typeof runtimeProfileSchema>, RuntimeProfile>>,
  Expect<Equal<z.infer<typeof commandErrorCodeSchema>, CommandErrorCode>>,
  Expect<Equal<z.infer<typeof commandErrorSchema>, CommandError>>,
  Expect<Equal<z.infer<typeof traceContextFieldsSchema>, TraceContextFields>>,
];

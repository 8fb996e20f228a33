import type { z } from 'zod';
import type { Equal, Expect } from './type-equality.helper';
import type { TimelineEntry, TimelineEntryType, timelineEntrySchema } from './timeline-entry.schema';

export type TimelineEntryTypeTests = [
  Expect<Equal<z.infer<typeof timelineEntrySchema>, TimelineEntry>>,
  Expect<Equal<TimelineEntry['type'], TimelineEntryType>>,
  // A notice row's code has a column of its own, whatever the row.
  Expect<Equal<TimelineEntry['noticeCode'], string | null>>,
];

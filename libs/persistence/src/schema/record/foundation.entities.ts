import { ConsumerCheckpointEntity } from './consumer-checkpoint.entity';
import { OutboxEventEntity } from './outbox-event.entity';
import { ProcessedCommandEntity } from './processed-command.entity';

/** Entities for the tables every service shares the shape of (see the foundation migration). */
export const foundationEntities = [ConsumerCheckpointEntity, ProcessedCommandEntity, OutboxEventEntity] as const;

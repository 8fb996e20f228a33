import { Public } from '../auth/access.decorators';
import { Body, Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { AcceptsBodyTypes } from '../http/body-media-type.guard';
import { parseInput } from '../http/parse-input';
import { idempotencyKeySchema } from '../../workspace/tasks/task.schemas';
import { AUTOPILOT_SECRET_HEADER, type AutopilotFiring } from '../../workspace/autopilots/autopilot.schemas';
import { AutopilotsService } from '../../workspace/autopilots/autopilots.service';

/**
 * `POST /api/autopilots/:id/webhook`: for other systems (CI, alerting), authenticated by the
 * autopilot's own secret in `X-Switchyard-Autopilot-Secret`, never by an API token; the whole JSON
 * body is the payload (form fields too, read as an object, for senders that post forms).
 * Kept out of the token-authenticated OpenAPI document (its own module).
 */
@Controller('api/autopilots')
export class AutopilotWebhookController {
  constructor(private readonly autopilots: AutopilotsService) {}

  @Post(':id/webhook')
  @Public('the autopilot’s webhook secret (X-Switchyard-Webhook-Secret) is its credential')
  @HttpCode(202)
  @AcceptsBodyTypes('json', 'form')
  webhook(
    @Param('id') id: string,
    @Headers(AUTOPILOT_SECRET_HEADER) secret: unknown,
    @Headers('idempotency-key') idempotencyKey: unknown,
    @Body() body: unknown,
  ): Promise<AutopilotFiring> {
    return this.autopilots.webhook({
      id,
      secret: typeof secret === 'string' ? secret : undefined,
      payload: body === undefined ? null : body,
      // Parsed after the secret is checked: an unauthenticated caller learns nothing but 401.
      idempotencyKey: () => parseInput(idempotencyKeySchema, idempotencyKey, { location: 'header' }),
    });
  }
}

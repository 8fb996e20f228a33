import type { INestApplication, INestMicroservice } from '@nestjs/common';
import { NestMicroservice, type CustomStrategy } from '@nestjs/microservices';
import { HandlerErrorPassThroughFilter } from './handler-error.filter';
import { MessagingTransport } from './messaging.transport';

/**
 * Connects the application's `MessagingTransport` (provided by `MessagingModule`) as a hybrid
 * microservice; `app.startAllMicroservices()` then starts its handlers. Call it before `init()`.
 */
export function connectMessagingTransport(app: INestApplication): INestMicroservice {
  // Deferred, so the error filter is in place before the handlers are bound to it.
  const microservice = app.connectMicroservice<CustomStrategy>({ strategy: app.get(MessagingTransport) }, { deferInitialization: true });
  if (!(microservice instanceof NestMicroservice)) throw new Error('connectMicroservice returned something other than a NestMicroservice');
  microservice.useGlobalFilters(new HandlerErrorPassThroughFilter());
  // The application runs every lifecycle hook once; the microservice only binds its handlers.
  microservice.setIsInitHookCalled(true);
  return microservice;
}

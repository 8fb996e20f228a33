import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ACCESS_REQUIREMENT, PUBLIC_ROUTE, type AccessRequirement } from '../auth/access.decorators';
import { AutopilotWebhookModule, DaemonEnrollModule, REST_MODULES } from './rest.modules';

/** Every module with HTTP routes: the documented REST API and the two routes that carry their own secret. */
export const ALL_HTTP_MODULES = [...REST_MODULES, AutopilotWebhookModule, DaemonEnrollModule] as const;

export interface DeclaredRoute {
  readonly method: string;
  /** OpenAPI style: `/api/tasks/{id}`. */
  readonly path: string;
  /** What `AccessGuard` asks of the caller; undefined for a public route. */
  readonly requirement: AccessRequirement | undefined;
  /** Why the route is public (`@Public`), when it is. */
  readonly publicBecause: string | undefined;
}

/** Every route the controllers of these modules (default: the documented REST API) declare, with its access declaration, read from Nest's own routing metadata. */
export function declaredRoutes(modules: ReadonlyArray<object> = REST_MODULES): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  for (const module of modules) {
    const controllers = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? []) as Array<new (...args: never[]) => object>;
    for (const controller of controllers) {
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (method === undefined || path === undefined) continue;
        const joined = `/${[base, path].map((part) => part.replace(/^\/|\/$/g, '')).filter(Boolean).join('/')}`;
        routes.push({
          method: RequestMethod[method].toLowerCase(),
          path: joined.replace(/:(\w+)/g, '{$1}'),
          requirement: Reflect.getMetadata(ACCESS_REQUIREMENT, handler) as AccessRequirement | undefined,
          publicBecause: Reflect.getMetadata(PUBLIC_ROUTE, handler) as string | undefined,
        });
      }
    }
  }
  return routes.sort((left, right) => `${left.path} ${left.method}`.localeCompare(`${right.path} ${right.method}`));
}

import { ApiRequestError } from './api-error';

const CSRF_COOKIE = 'switchyard_csrf';
const WORKSPACE_KEY = 'switchyard.workspace';

/** The CSRF token the gateway set with the session (a readable cookie): sent back on every write. */
export function csrfToken(): string | undefined {
  const entry = document.cookie.split('; ').find((part) => part.startsWith(`${CSRF_COOKIE}=`));
  return entry ? decodeURIComponent(entry.slice(CSRF_COOKIE.length + 1)) : undefined;
}

/** The workspace the person works in now (they may belong to several); kept across reloads. */
export function currentWorkspaceId(): string | undefined {
  return localStorage.getItem(WORKSPACE_KEY) ?? undefined;
}

export function setCurrentWorkspaceId(workspaceId: string): void {
  localStorage.setItem(WORKSPACE_KEY, workspaceId);
}

/**
 * One request to the gateway, on its own origin: the session cookie goes by itself, the CSRF token
 * and the workspace in headers (with any others the caller adds, e.g. `Idempotency-Key`). Answers the parsed JSON (undefined for 204), or throws
 * `ApiRequestError` with the API's code and message.
 */
export async function apiRequest<T>(method: string, path: string, body?: unknown, extraHeaders: Readonly<Record<string, string>> = {}): Promise<T> {
  const headers: Record<string, string> = { ...extraHeaders };
  const workspaceId = currentWorkspaceId();
  if (workspaceId) headers['x-switchyard-workspace'] = workspaceId;
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken() ?? '';
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, credentials: 'same-origin', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  } catch (error) {
    throw new ApiRequestError(0, 'network_error', `the gateway did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text();
  const parsed: unknown = text === '' ? undefined : safeJson(text);
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
    throw new ApiRequestError(response.status, error?.code ?? `http_${response.status}`, error?.message ?? (text || response.statusText), error?.details);
  }
  return parsed as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const api = {
  get: <T>(path: string) => apiRequest<T>('GET', path),
  post: <T>(path: string, body?: unknown, headers?: Readonly<Record<string, string>>) => apiRequest<T>('POST', path, body ?? {}, headers),
  patch: <T>(path: string, body: unknown) => apiRequest<T>('PATCH', path, body),
  delete: <T = void>(path: string) => apiRequest<T>('DELETE', path),
};

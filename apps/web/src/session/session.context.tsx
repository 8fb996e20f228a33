import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError } from '../api/api-error';
import type { Membership, SessionView } from '../api/api.types';
import { api, currentWorkspaceId, setCurrentWorkspaceId } from '../api/http-client';

export interface SessionState {
  readonly session: SessionView;
  readonly workspace: Membership;
  chooseWorkspace(workspaceId: string): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

/** The signed-in person (or undefined while signed out), from `GET /api/me`. */
export function useSessionQuery() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async (): Promise<SessionView | null> => {
      try {
        return await api.get<SessionView>('/api/me');
      } catch (error) {
        if (error instanceof ApiRequestError && (error.status === 401 || error.status === 403)) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

export function SessionProvider(props: { readonly session: SessionView; readonly children: ReactNode }) {
  const queries = useQueryClient();
  const memberships = props.session.memberships;
  const stored = currentWorkspaceId();
  const workspace = memberships.find((membership) => membership.workspaceId === stored) ?? memberships[0];
  useEffect(() => {
    if (workspace && workspace.workspaceId !== stored) setCurrentWorkspaceId(workspace.workspaceId);
  }, [workspace, stored]);
  if (!workspace) return <p role="alert">You are not a member of any workspace yet: ask for an invitation.</p>;
  const state: SessionState = {
    session: props.session,
    workspace,
    chooseWorkspace(workspaceId) {
      setCurrentWorkspaceId(workspaceId);
      // Everything read so far belongs to the other workspace.
      queries.clear();
      void queries.invalidateQueries();
    },
    async signOut() {
      await api.post('/api/auth/sign-out');
      // Signed out at once (the sign-in page shows), and nothing read as this person stays cached.
      queries.setQueryData(['session'], null);
      queries.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
    },
  };
  return <SessionContext.Provider value={state}>{props.children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** Whether the person's role in the current workspace is at least this one. */
export function useRoleAtLeast(role: Membership['role']): boolean {
  const order: Array<Membership['role']> = ['viewer', 'member', 'admin', 'owner'];
  return order.indexOf(useSession().workspace.role) >= order.indexOf(role);
}

// The shapes the pages read, as the gateway answers them (docs/architecture/gateway.md, /api/docs).

export type Role = 'owner' | 'admin' | 'member' | 'viewer';

export interface UserView {
  readonly id: string;
  readonly email: string;
  readonly displayName: string;
  readonly hasPassword: boolean;
}

export interface Membership {
  readonly workspaceId: string;
  readonly workspaceName: string;
  readonly role: Role;
}

export interface SessionView {
  readonly user: UserView;
  readonly memberships: Membership[];
  readonly csrfToken: string | null;
}

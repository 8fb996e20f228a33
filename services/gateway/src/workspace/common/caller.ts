/** Who is calling: every query of the gateway is scoped to this workspace. */
export interface Caller {
  readonly workspaceId: string;
  readonly tokenId: string;
}

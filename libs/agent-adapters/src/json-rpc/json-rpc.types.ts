// JSON-RPC 2.0 frames as Codex app-server sends them over stdio, one per line.
// Codex omits `"jsonrpc": "2.0"`, so it is optional on what we read.

export type JsonRpcId = number | string;

export interface JsonRpcRequestFrame {
  readonly jsonrpc?: '2.0';
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: unknown;
}
export interface JsonRpcNotificationFrame {
  readonly jsonrpc?: '2.0';
  readonly method: string;
  readonly params?: unknown;
}
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}
export interface JsonRpcResponseFrame {
  readonly jsonrpc?: '2.0';
  readonly id: JsonRpcId | null;
  readonly result?: unknown;
  readonly error?: JsonRpcErrorObject;
}
export type JsonRpcFrame = JsonRpcRequestFrame | JsonRpcNotificationFrame | JsonRpcResponseFrame;

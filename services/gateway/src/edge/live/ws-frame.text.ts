import type { RawData } from 'ws';

/** A received WebSocket text frame as a string (ws hands it over as a Buffer, fragments or an ArrayBuffer). */
export function textOfFrame(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8');
}

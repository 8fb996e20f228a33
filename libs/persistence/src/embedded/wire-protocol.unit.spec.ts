import {
  FrontendReader,
  ReadyForQueryTail,
  SSL_REQUEST_CODE,
  WireProtocolError,
  closeStatementMessage,
  rewriteStatementNames,
  simpleQueryMessage,
  startupMessage,
  syncMessage,
} from './wire-protocol';

function typedMessage(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const zero = Buffer.from([0]);
const parse = (name: string, sql: string): Buffer =>
  typedMessage('P', Buffer.concat([Buffer.from(name), zero, Buffer.from(sql), zero, Buffer.from([0, 0])]));
const bind = (portal: string, statement: string): Buffer =>
  typedMessage('B', Buffer.concat([Buffer.from(portal), zero, Buffer.from(statement), zero, Buffer.from([0, 0, 0, 0, 0, 0])]));

describe('FrontendReader', () => {
  it('reads an SSL request and the startup untyped, then typed messages split across chunks', () => {
    const sslRequest = Buffer.alloc(8);
    sslRequest.writeInt32BE(8, 0);
    sslRequest.writeInt32BE(SSL_REQUEST_CODE, 4);
    const stream = Buffer.concat([sslRequest, startupMessage({ user: 'postgres' }), simpleQueryMessage('select 1'), syncMessage()]);
    const reader = new FrontendReader();
    const kinds: string[] = [];
    for (const byte of stream) {
      reader.push(Buffer.from([byte]));
      for (let frame = reader.next(); frame; frame = reader.next()) {
        kinds.push(frame.kind === 'message' ? `message ${frame.type}` : frame.kind);
      }
    }
    expect(kinds).toEqual(['ssl-request', 'startup', 'message Q', 'message S']);
  });

  it('rejects a stream that is not the Postgres protocol', () => {
    const reader = new FrontendReader();
    reader.push(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    expect(() => reader.next()).toThrow(WireProtocolError);
  });
});

describe('ReadyForQueryTail', () => {
  it('reads the transaction status from a ReadyForQuery split across chunks', () => {
    const tail = new ReadyForQueryTail();
    tail.push(Buffer.from('C\u0000\u0000\u0000\u000bBEGIN\u0000Z\u0000\u0000', 'latin1'));
    tail.push(Buffer.from('\u0000\u0005T', 'latin1'));
    expect(tail.status()).toBe('T');
  });

  it('reports no status when the response did not end with ReadyForQuery', () => {
    const tail = new ReadyForQueryTail();
    tail.push(Buffer.from('1\u0000\u0000\u0000\u0004', 'latin1'));
    expect(tail.status()).toBeUndefined();
  });
});

describe('rewriteStatementNames', () => {
  it('prefixes named statements in Parse, Bind, Describe and Close, and leaves the unnamed one alone', () => {
    const parsed = rewriteStatementNames('P', parse('fetch', 'select 1'), 'sy3_');
    expect(parsed).toEqual({ bytes: parse('sy3_fetch', 'select 1'), parsed: 'fetch' });
    expect(rewriteStatementNames('B', bind('', 'fetch'), 'sy3_').bytes).toEqual(bind('', 'sy3_fetch'));
    expect(rewriteStatementNames('C', closeStatementMessage('fetch'), 'sy3_')).toEqual({
      bytes: closeStatementMessage('sy3_fetch'),
      closed: 'fetch',
    });
    expect(rewriteStatementNames('P', parse('', 'select 1'), 'sy3_')).toEqual({ bytes: parse('', 'select 1') });
    const describePortal = typedMessage('D', Buffer.concat([Buffer.from('P'), zero]));
    expect(rewriteStatementNames('D', describePortal, 'sy3_').bytes).toEqual(describePortal);
  });
});

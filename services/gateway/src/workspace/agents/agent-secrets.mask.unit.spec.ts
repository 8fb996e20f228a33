import { ApiError } from '../common/api-error';
import { MASKED_VALUE, maskMcpServers, maskValues, restoreMaskedMcpServers, restoreMaskedValues } from './agent-secrets.mask';

describe('agent secrets masking', () => {
  it('masks every env value and every MCP env and header value, keeping the keys', () => {
    expect(maskValues({ A: 'secret', B: '' })).toEqual({ A: MASKED_VALUE, B: MASKED_VALUE });
    expect(
      maskMcpServers({
        local: { command: 'mcp', args: ['--port', '1'], env: { TOKEN: 't' } },
        remote: { url: 'https://mcp.example', headers: { authorization: 'Bearer x' } },
      }),
    ).toEqual({
      local: { command: 'mcp', args: ['--port', '1'], env: { TOKEN: MASKED_VALUE } },
      remote: { url: 'https://mcp.example', headers: { authorization: MASKED_VALUE } },
    });
  });

  it('given masked values sent back, keeps the stored ones and takes the new ones', () => {
    expect(restoreMaskedValues({ next: { KEEP: MASKED_VALUE, NEW: 'n' }, stored: { KEEP: 'k', DROPPED: 'd' }, field: 'env' })).toEqual({ KEEP: 'k', NEW: 'n' });
    expect(
      restoreMaskedMcpServers(
        { remote: { url: 'https://mcp.example', headers: { authorization: MASKED_VALUE } } },
        { remote: { url: 'https://old.example', headers: { authorization: 'Bearer x' } } },
      ),
    ).toEqual({ remote: { url: 'https://mcp.example', headers: { authorization: 'Bearer x' } } });
  });

  it('refuses a masked value with nothing stored behind it', () => {
    expect(() => restoreMaskedValues({ next: { NEW: MASKED_VALUE }, stored: {}, field: 'env' })).toThrow(ApiError);
    expect(() => restoreMaskedMcpServers({ fresh: { command: 'x', env: { A: MASKED_VALUE } } }, {})).toThrow(/mcpServers\.fresh\.env\.A/);
  });
});

import { GatewayTestKit } from '../../gateway-test.spec-helper';
import { connectLiveClient, type LiveTestClient } from './live-client.spec-helper';
import { LIVE_CLOSE_CODES } from './live.frames';

describe('live connections of a revoked API token (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;
  const clients: LiveTestClient[] = [];

  beforeAll(async () => {
    kit = await GatewayTestKit.start();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await kit?.stop();
  });

  async function newToken(name: string): Promise<{ id: string; token: string }> {
    const created = await kit.as(kit.bootstrapToken).post('/api/tokens', { name });
    if (created.status !== 201) throw new Error(`token not created: ${created.status}`);
    return { id: created.body.id as string, token: created.body.token as string };
  }

  /** A socket authenticated by the upgrade header, or by an auth frame (as browsers do). */
  async function connected(token: string, how: 'header' | 'auth frame'): Promise<LiveTestClient> {
    const client = await connectLiveClient(kit.gateway.url, how === 'header' ? { token } : {});
    clients.push(client);
    if (how === 'auth frame') client.send({ type: 'auth', token });
    await client.waitFor((frames) => frames.some((frame) => frame.type === 'ready'));
    return client;
  }

  it('closes the sockets a token opened, with 4403 token_revoked, once it is revoked over REST; other tokens’ sockets stay', async () => {
    const revoked = await newToken('revoked over REST');
    const kept = await newToken('kept');
    const byHeader = await connected(revoked.token, 'header');
    const byFrame = await connected(revoked.token, 'auth frame');
    const other = await connected(kept.token, 'header');

    expect((await kit.as(kit.bootstrapToken).delete(`/api/tokens/${revoked.id}`)).status).toBe(204);

    expect(await byHeader.closedWith).toEqual({ code: LIVE_CLOSE_CODES.tokenRevoked, reason: 'token_revoked' });
    expect(await byFrame.closedWith).toEqual({ code: LIVE_CLOSE_CODES.tokenRevoked, reason: 'token_revoked' });
    other.send({ type: 'ping' });
    await other.waitFor((frames) => frames.some((frame) => frame.type === 'pong'));
    await expect(connectLiveClient(kit.gateway.url, { token: revoked.token })).rejects.toThrow(/401/);
  });

  it('closes them too when the token was revoked elsewhere (another replica): the periodic recheck finds it', async () => {
    const revoked = await newToken('revoked by another replica');
    const kept = await newToken('kept too');
    const victim = await connected(revoked.token, 'header');
    const other = await connected(kept.token, 'auth frame');

    // Another gateway's revocation: the row changes, this gateway hears nothing of it.
    await kit.query('update api_token set revoked_at = now() where id = $1', [revoked.id]);

    expect(await victim.closedWith).toEqual({ code: LIVE_CLOSE_CODES.tokenRevoked, reason: 'token_revoked' });
    // The recheck that closed the victim checked this one in the same query.
    other.send({ type: 'ping' });
    await other.waitFor((frames) => frames.some((frame) => frame.type === 'pong'));
  }, 20_000);
});

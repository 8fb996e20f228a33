import WebSocket from 'ws';
import { GatewayTestKit } from '../../gateway-test.spec-helper';
import { connectLiveClient } from '../live/live-client.spec-helper';
import { TEST_PASSWORD, signUpMember } from '../../people-test.spec-helper';

const LIMIT = 10;
// Short, so the test can wait it out; far longer than the 300 local requests below take.
const WINDOW_SECONDS = 5;

interface Answer {
  readonly via: 'rest' | 'websocket';
  readonly status: number;
  readonly retryAfter: string | undefined;
}

describe('failed authentication is rate limited per client address (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_AUTH_FAILURE_LIMIT: String(LIMIT), GATEWAY_AUTH_FAILURE_WINDOW_MS: String(WINDOW_SECONDS * 1_000) });
  });
  afterAll(async () => {
    await kit?.stop();
  });

  async function overRest(token: string): Promise<Answer> {
    const response = await fetch(`${kit.gateway.url}/api/workspace`, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    return { via: 'rest', status: response.status, retryAfter: response.headers.get('retry-after') ?? undefined };
  }

  function overUpgrade(token: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${kit.gateway.url.replace(/^http/, 'ws')}/api/live`, { headers: { authorization: `Bearer ${token}` } });
      socket.once('unexpected-response', (request, response) => {
        request.destroy();
        const retryAfter = response.headers['retry-after'];
        resolve({ via: 'websocket', status: response.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined });
      });
      socket.once('open', () => {
        socket.close();
        resolve({ via: 'websocket', status: 101, retryAfter: undefined });
      });
      socket.once('error', reject);
    });
  }

  it('never holds back a burst of valid requests from one address (50 at once, all answered 200)', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => overRest(kit.bootstrapToken)));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 50 }, () => 200));
  });

  it('answers 300 bad tokens in a row (REST and WebSocket upgrades alike) 429 with Retry-After after the first 10, and a valid token works again after the window', async () => {
    // Successes do not count.
    for (let index = 0; index < 2 * LIMIT; index++) expect((await overRest(kit.bootstrapToken)).status).toBe(200);

    const answers: Answer[] = [];
    for (let index = 0; index < 300; index++) {
      const badToken = `sy_guess-${index}-guess-guess-guess-guess`;
      answers.push(index % 2 === 0 ? await overRest(badToken) : await overUpgrade(badToken));
    }

    expect(answers.slice(0, LIMIT).map((answer) => answer.status)).toEqual(Array<number>(LIMIT).fill(401));
    const limited = answers.slice(LIMIT);
    expect(new Set(limited.map((answer) => `${answer.via} ${answer.status}`))).toEqual(new Set(['rest 429', 'websocket 429']));
    const retryAfters = limited.map((answer) => Number(answer.retryAfter));
    expect(retryAfters.every((seconds) => Number.isInteger(seconds) && seconds >= 1 && seconds <= WINDOW_SECONDS)).toBe(true);

    // Blocked means blocked: a valid token from this address is refused too, so a good guess would not show.
    const blocked = await overRest(kit.bootstrapToken);
    expect(blocked.status).toBe(429);
    const body = (await kit.request('GET', '/api/workspace', { token: kit.bootstrapToken })).body as { error: { code: string } };
    expect(body.error.code).toBe('auth_rate_limited');

    await new Promise((resolve) => setTimeout(resolve, Number(blocked.retryAfter) * 1_000));
    expect((await overRest(kit.bootstrapToken)).status).toBe(200);
    const live = await connectLiveClient(kit.gateway.url, { token: kit.bootstrapToken });
    await live.waitFor((frames) => frames.some((frame) => frame.type === 'ready'));
    await live.close();
  }, 30_000);

  it('closes a socket whose auth frame comes from a blocked address with 4429', async () => {
    for (let index = 0; index < LIMIT; index++) await overRest(`sy_second-guess-${index}-guess-guess-guess`);
    const browser = await connectLiveClient(kit.gateway.url);
    browser.send({ type: 'auth', token: kit.bootstrapToken });

    expect(await browser.closedWith).toEqual({ code: 4429, reason: expect.stringMatching(/^too many failed authentications; retry in \d+ s$/) });
  });

  it('counts wrong passwords like bad tokens: past the limit a sign-in is 429, even with the right password', async () => {
    // Wait out the window the cases above filled.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1_000));
    const member = await signUpMember(kit, await kit.workspace('Limits'), 'member');
    const signIn = (password: string) => fetch(`${kit.gateway.url}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: member.email, password }) });
    const statuses: number[] = [];
    for (let index = 0; index <= LIMIT; index++) statuses.push((await signIn(`guess number ${index} of many`)).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429]);
    const right = await signIn(TEST_PASSWORD);
    expect([right.status, right.headers.get('retry-after')]).toEqual([429, expect.stringMatching(/^\d+$/)]);
  }, 30_000);
});

import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startSystemProcesses, type SystemProcesses } from '@switchyard/testing';
import { launchChromium } from './debian-chromium';
import { gatewayApi, waitUntil, type GatewayApi } from './gateway-api.spec-helper';

const DAEMON_ID = 'daemon-browser-suite';
const RUNTIME_ID = `${DAEMON_ID}-claude-code`;
const TOKEN = 'sy_browser-suite-owner-token-000000000001';
const PERSON = { email: 'ada@example.com', name: 'Ada', password: 'a long enough passphrase' };
const workspaceRoot = path.resolve(__dirname, '../../..');

/** Where screenshots go: docs/images when SWITCHYARD_WRITE_SCREENSHOTS=1 (to refresh the README's), else a temporary folder. */
const screenshotDirectory = process.env['SWITCHYARD_WRITE_SCREENSHOTS'] === '1' ? path.join(workspaceRoot, 'docs/images') : path.join(tmpdir(), `switchyard-screenshots-${process.pid}`);

/**
 * The web app in Debian's Chromium against the real stack: queue, session-resume, transcript and
 * the gateway (serving the built app) as built processes on real NATS and Postgres, a daemon with
 * the real Claude Code on the mock model. A person joins by invitation, signs out and in, makes an
 * agent, assigns it an issue and watches the run stream to completion, steers it with a comment
 * that resumes the session, cancels a slow run, survives a dropped WebSocket with every message
 * once, and chats. The page must log no error on the way.
 */
describe('the web app in a real browser (Debian Chromium, real Claude Code)', () => {
  let system: SystemProcesses;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: GatewayApi;
  let agentName = '';
  const pageErrors: string[] = [];
  let scratch = '';

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(workspaceRoot, 'tools/build/build-web.mjs')], { cwd: workspaceRoot, stdio: 'ignore' });
    mkdirSync(screenshotDirectory, { recursive: true });
    scratch = await mkdtemp(path.join(tmpdir(), 'switchyard-browser-'));
    system = await startSystemProcesses({ services: ['queue', 'session-resume', 'transcript', 'gateway'], gatewayToken: TOKEN });
    api = gatewayApi(system.gatewayUrl, TOKEN);
    await system.startDaemon({ daemonId: DAEMON_ID });
    await waitUntil(async () => ((await api('GET', `/api/runtimes/${RUNTIME_ID}`)).status === 200 ? true : undefined), 'the Claude runtime is listed');
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      // A refused request is the browser's own console line; the one refusal the flow causes is the signed-out `/api/me`.
      if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of 401/.test(message.text())) pageErrors.push(`console: ${message.text()}`);
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    await rm(scratch, { recursive: true, force: true });
  }, 60_000);

  const go = (route: string) => page.goto(`${system.gatewayUrl}${route}`);
  const byTestId = (id: string) => page.getByTestId(id);

  /** The issue the board just made, found over the API. */
  const issueTitled = async (title: string): Promise<{ id: string }> =>
    waitUntil(async () => ((await api('GET', '/api/issues')).body.issues as Array<{ id: string; title: string }>).find((issue) => issue.title === title), `issue ${title} exists`);

  /** The issue's tasks, oldest first. */
  const tasksOf = async (issueId: string): Promise<Array<{ taskId: string; status: string }>> =>
    ((await api('GET', `/api/tasks?limit=200`)).body.tasks as Array<{ taskId: string; status: string; issueId: string | null; enqueuedAt: string }>)
      .filter((task) => task.issueId === issueId)
      .sort((left, right) => left.enqueuedAt.localeCompare(right.enqueuedAt));

  const statusOnPage = (taskId: string, status: string) => page.locator(`[data-testid="task-status-${taskId}"][data-status="${status}"]`).waitFor({ timeout: 150_000 });

  /** Creates an issue through the board's dialog, assigned to the agent; answers it and its first task once it has one. */
  async function createIssue(title: string, description: string): Promise<{ issueId: string; taskId: string }> {
    await go('/');
    await byTestId('issue-create-open').click();
    await byTestId('issue-create-title').fill(title);
    await byTestId('issue-create-description').fill(description);
    await byTestId('issue-create-assignee').selectOption({ label: agentName });
    await byTestId('issue-create-submit').click();
    await byTestId('issue-create-dialog').waitFor({ state: 'hidden' });
    const issue = await issueTitled(title);
    const task = await waitUntil(async () => (await tasksOf(issue.id))[0], `issue ${title} has a task`);
    await go(`/issues/${issue.id}`);
    return { issueId: issue.id, taskId: task.taskId };
  }

  it('joins by invitation, signs out and in again with email and password', async () => {
    const invitation = await api('POST', '/api/invitations', { role: 'admin', email: PERSON.email });
    expect(invitation.status).toBe(201);
    await page.goto(invitation.body.link as string);
    await page.getByLabel('Email').fill(PERSON.email);
    await page.getByLabel('Your name').fill(PERSON.name);
    await page.getByLabel(/Password/).fill(PERSON.password);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Switchyard' }).waitFor();
    await page.getByLabel('Email').fill(PERSON.email);
    await page.getByLabel('Password').fill(PERSON.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('.who').textContent()).resolves.toBe(PERSON.name);
  }, 60_000);

  it('creates an agent on the Claude runtime, with the model’s address and key in its env', async () => {
    await go('/agents');
    await byTestId('agent-new').click();
    agentName = 'Claude';
    await byTestId('agent-name').fill(agentName);
    await byTestId('agent-runtime').selectOption(RUNTIME_ID);
    for (const [key, value] of [
      ['ANTHROPIC_BASE_URL', system.model.url],
      ['ANTHROPIC_API_KEY', 'sk-mock-not-a-secret'],
    ] as const) {
      await byTestId('agent-env-add').click();
      const row = byTestId('agent-env-row').last();
      await row.getByLabel(/name/i).fill(key);
      await row.getByLabel(/value/i).fill(value);
    }
    await byTestId('agent-save').click();
    await byTestId('agent-saved').waitFor();
    const agents = (await api('GET', '/api/agents')).body.agents as Array<{ name: string; runtimeId: string }>;
    expect(agents.find((agent) => agent.name === agentName)).toMatchObject({ runtimeId: RUNTIME_ID });
  }, 60_000);

  it('assigns an issue from the board and streams its run live to completion: text, the tool call with its output, the status', async () => {
    const { taskId } = await createIssue('Say hello', 'Run the greeting. [[scenario:tool-command echo hello-from-the-board]]');
    const timeline = byTestId(`timeline-${taskId}`);
    await timeline.locator('[data-testid="timeline-item"][data-kind="tool"]').first().waitFor({ timeout: 150_000 });
    await statusOnPage(taskId, 'completed');
    await expect(timeline.textContent()).resolves.toContain('hello-from-the-board');
    await page.screenshot({ path: path.join(screenshotDirectory, 'issue-live-timeline.png'), fullPage: true });
    await go('/');
    await page.locator('[data-testid^="issue-card-"]').first().waitFor();
    await page.screenshot({ path: path.join(screenshotDirectory, 'board.png'), fullPage: true });
  }, 180_000);

  it('steers the run with a comment that mentions the agent: the follow-up resumes the session and remembers', async () => {
    const { issueId, taskId } = await createIssue('Remember a word', 'Keep this in mind. [[scenario:remember sunflower]]');
    await statusOnPage(taskId, 'completed');
    const input = byTestId('comment-input');
    await input.fill('');
    await input.pressSequentially('@Cla');
    await page.getByRole('listbox', { name: 'Agents to mention' }).getByRole('option', { name: new RegExp(agentName) }).waitFor();
    await input.press('Enter');
    await input.pressSequentially(' what was the word? [[scenario:text]]');
    await byTestId('comment-submit').click();
    const followUp = await waitUntil(async () => (await tasksOf(issueId))[1], 'the comment starts a follow-up');
    await statusOnPage(followUp.taskId, 'completed');
    await expect(byTestId(`timeline-${followUp.taskId}`).textContent()).resolves.toContain('sunflower');
  }, 300_000);

  it('cancels a slow run from its timeline', async () => {
    const { taskId } = await createIssue('Take your time', 'Think slowly. [[scenario:slow 60000]]');
    await statusOnPage(taskId, 'running');
    await byTestId(`task-cancel-${taskId}`).click();
    await statusOnPage(taskId, 'cancelled');
    expect((await api('GET', `/api/tasks/${taskId}`)).body).toMatchObject({ status: 'cancelled' });
  }, 200_000);

  it('loses nothing and doubles nothing when the WebSocket drops mid-run', async () => {
    const gate = path.join(scratch, 'gate');
    const { taskId } = await createIssue('Wait for the gate', `Wait, then report. [[scenario:tool-command until test -f ${gate}; do sleep 0.2; done; echo gate-passed]]`);
    // Mid-run: the tool call is on the page, its result not yet.
    await byTestId(`timeline-${taskId}`).locator('[data-testid="timeline-item"][data-kind="tool"]').first().waitFor({ timeout: 150_000 });
    const connections = async (): Promise<number> => Number(await page.evaluate('window.switchyardLive?.connections ?? 0'));
    const before = await connections();
    await page.evaluate('window.switchyardLive?.dropConnection()');
    execFileSync('touch', [gate]);
    await statusOnPage(taskId, 'completed');
    await expect(connections()).resolves.toBeGreaterThan(before);

    const rows = (await api('GET', `/api/tasks/${taskId}/messages?limit=1000`)).body.messages as Array<{ seq: number; type: string; content: string | null; output: string | null }>;
    const timeline = byTestId(`timeline-${taskId}`);
    await expect(timeline.getAttribute('data-last-seq').then(Number)).resolves.toBeGreaterThanOrEqual(rows.at(-1)!.seq);
    const items = await timeline.locator('[data-testid="timeline-item"]').all();
    const seqsOnPage = await Promise.all(items.map(async (item) => Number(await item.getAttribute('data-seq'))));
    expect(new Set(seqsOnPage).size).toBe(seqsOnPage.length);
    const text = (await timeline.textContent()) ?? '';
    for (const row of rows.filter((entry) => entry.type === 'text' && entry.content)) expect(text.split(row.content!).length - 1).toBe(1);
    expect(text.split('gate-passed').length - 1).toBeGreaterThanOrEqual(1);
    expect(await timeline.locator('[data-testid="timeline-item"][data-kind="tool"]').count()).toBe(rows.filter((entry) => entry.type === 'tool_use').length);
  }, 200_000);

  it('chats with the agent and shows its reply live', async () => {
    await go('/chat');
    await byTestId('chat-new-agent').selectOption({ label: agentName });
    await byTestId('chat-new-start').click();
    await byTestId('chat-input').fill('Hello there. [[scenario:text]]');
    await byTestId('chat-send').click();
    await page.locator('[data-testid="chat-message"][data-author-kind="agent"]').first().waitFor({ timeout: 150_000 });
    await page.screenshot({ path: path.join(screenshotDirectory, 'chat.png'), fullPage: true });
  }, 180_000);

  it('makes an API token shown once and revokes it, and revokes an open invitation, each after confirming', async () => {
    const pending = await api('POST', '/api/invitations', { role: 'member', email: 'grace@example.com' });
    expect(pending.status).toBe(201);
    await go('/members');
    await byTestId('token-name').fill('browser-suite');
    await byTestId('token-create').click();
    const secret = await byTestId('secret-dialog-value').inputValue();
    await byTestId('secret-dialog').getByRole('button', { name: 'Done' }).click();
    const withToken = (token: string) => fetch(`${system.gatewayUrl}/api/issues`, { headers: { authorization: `Bearer ${token}` } }).then((response) => response.status);
    expect(await withToken(secret)).toBe(200);

    const tokenRow = byTestId('token-row').filter({ hasText: 'browser-suite' });
    await tokenRow.getByTestId('token-revoke').click();
    await byTestId('confirm-dialog-confirm').click();
    await byTestId('confirm-dialog').waitFor({ state: 'hidden' });
    await tokenRow.getByText(/^revoked /).waitFor();
    expect(await withToken(secret)).toBe(401);

    const invitationRow = byTestId('invitation-row').filter({ hasText: 'grace@example.com' });
    await invitationRow.getByTestId('invitation-revoke').click();
    await byTestId('confirm-dialog-confirm').click();
    await page.locator('[data-testid="invitation-row"][data-state="revoked"]').filter({ hasText: 'grace@example.com' }).waitFor();
  }, 60_000);

  it('reads at a phone’s width, and logged no error on any page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const route of ['/', '/agents', '/runtimes', '/autopilots', '/usage', '/members', '/chat']) {
      await go(route);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
      expect({ route, overflow: overflow <= 1 }).toEqual({ route, overflow: true });
    }
    expect(pageErrors).toEqual([]);
  }, 120_000);
});

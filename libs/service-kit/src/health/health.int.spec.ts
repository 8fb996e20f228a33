import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { HealthModule } from './health.module';
import type { ReadinessCheck } from './readiness-check';

async function startApp(checks: ReadinessCheck[]): Promise<{ app: INestApplication; url: string }> {
  @Module({ imports: [HealthModule.forRoot({ useFactory: () => checks })] })
  class TestModule {}
  const app = await NestFactory.create(TestModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}

describe('health endpoints', () => {
  let running: { app: INestApplication; url: string } | undefined;
  afterEach(async () => {
    await running?.app.close();
    running = undefined;
  });

  it('answers /healthz 200 while a dependency is down, and /readyz 503 naming it', async () => {
    running = await startApp([
      { name: 'nats', check: () => Promise.resolve() },
      { name: 'database', check: () => Promise.reject(new Error('connection refused')) },
    ]);
    const health = await fetch(`${running.url}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${running.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      ready: false,
      checks: { nats: { ok: true }, database: { ok: false, error: 'connection refused' } },
    });
  });

  it('answers /readyz 200 when every check passes', async () => {
    running = await startApp([{ name: 'nats', check: () => Promise.resolve() }]);
    const ready = await fetch(`${running.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { nats: { ok: true } } });
  });

  it('reports a check that never settles as not ready instead of hanging', async () => {
    running = await startApp([{ name: 'database', check: () => new Promise<void>(() => undefined) }]);
    const ready = await fetch(`${running.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ ready: false, checks: { database: { ok: false, error: 'database check timed out after 2000 ms' } } });
  });
});

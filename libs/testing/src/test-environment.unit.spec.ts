import { testDatabaseServer, testNatsUrl, uniqueNamespace } from './test-environment';
import { TEST_NATS_URL_KEY } from './test-infrastructure';

describe('test environment', () => {
  it('gives namespaces that are valid subject segments and never repeat', () => {
    const namespaces = Array.from({ length: 200 }, () => uniqueNamespace());
    for (const namespace of namespaces) expect(namespace).toMatch(/^t[0-9a-f]{10}$/);
    expect(new Set(namespaces).size).toBe(namespaces.length);
  });

  it('hands tests the servers the global setup chose', () => {
    expect(testNatsUrl()).toMatch(/^nats:\/\//);
    expect(testDatabaseServer()).toMatch(/^(postgres:\/\/|embedded$)/);
  });

  it('explains how to get a server when run outside the jest bootstrap', () => {
    const saved = process.env[TEST_NATS_URL_KEY];
    delete process.env[TEST_NATS_URL_KEY];
    try {
      expect(() => testNatsUrl()).toThrow(/run tests through jest/);
    } finally {
      process.env[TEST_NATS_URL_KEY] = saved;
    }
  });
});

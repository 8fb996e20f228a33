import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCreds } from '@nats-io/jwt';
import { createBusAuthority, loadBusAuthority, loadEnrollmentAuthority, permissionsOf, saveBusAuthority, SERVICE_IDENTITIES } from '@switchyard/messaging';
import { DEPLOYMENT_FILES, writeDeploymentBus, type DeploymentBusOptions } from './deployment-bus.writer';
import { parseInitOptions } from './init.options';

const modeOf = (file: string): number => statSync(file).mode & 0o777;

describe('writing a deployment bus', () => {
  let root: string;
  let options: DeploymentBusOptions;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'switchyard-bus-setup-'));
    options = parseInitOptions({ out: path.join(root, 'bus'), 'authority-dir': path.join(root, 'authority'), namespace: 'prod' });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('given an empty place, when init runs, then it creates the authority and writes every file owner-only', async () => {
    const written = await writeDeploymentBus(options);

    expect(written.map((file) => [path.relative(root, file.file), file.outcome])).toEqual([
      ['authority/authority.json', 'created'],
      ['bus/nats-server.conf', 'created'],
      ['bus/nats-operator.conf', 'created'],
      ['bus/gateway.creds', 'written'],
      ['bus/queue.creds', 'written'],
      ['bus/session-resume.creds', 'written'],
      ['bus/transcript.creds', 'written'],
      ['bus/enrollment-authority.json', 'written'],
    ]);
    expect(readdirSync(path.join(root, 'bus')).sort()).toEqual(
      [DEPLOYMENT_FILES.serverConfig, DEPLOYMENT_FILES.operatorInclude, DEPLOYMENT_FILES.enrollmentAuthority, ...SERVICE_IDENTITIES.map(DEPLOYMENT_FILES.credentialsOf)].sort(),
    );
    for (const directory of ['bus', 'authority']) expect({ directory, mode: modeOf(path.join(root, directory)) }).toEqual({ directory, mode: 0o700 });
    for (const { file } of written) expect({ file, mode: modeOf(file) }).toEqual({ file, mode: 0o600 });
  });

  it('given an existing authority, when init runs again, then the authority and the server configs stay as they were', async () => {
    const seeded = createBusAuthority();
    saveBusAuthority(options.authorityDirectory, seeded);
    const authorityBefore = readFileSync(path.join(options.authorityDirectory, 'authority.json'), 'utf8');
    await writeDeploymentBus(options);
    const configBefore = readFileSync(path.join(options.outDirectory, DEPLOYMENT_FILES.serverConfig), 'utf8');

    const again = await writeDeploymentBus(options);

    expect(again.slice(0, 3).map((file) => file.outcome)).toEqual(['reused', 'kept', 'kept']);
    expect(readFileSync(path.join(options.authorityDirectory, 'authority.json'), 'utf8')).toBe(authorityBefore);
    expect(readFileSync(path.join(options.outDirectory, DEPLOYMENT_FILES.serverConfig), 'utf8')).toBe(configBefore);
    expect(configBefore).toContain(`system_account: ${seeded.systemAccount.getPublicKey()}`);
  });

  it('given changed server settings, when init runs again, then the server config is updated and the include is kept', async () => {
    await writeDeploymentBus(options);

    const again = await writeDeploymentBus({ ...options, server: { ...options.server, port: 4333 } });

    expect(again.slice(1, 3).map((file) => [path.basename(file.file), file.outcome])).toEqual([
      ['nats-server.conf', 'updated'],
      ['nats-operator.conf', 'kept'],
    ]);
    expect(readFileSync(path.join(options.outDirectory, DEPLOYMENT_FILES.serverConfig), 'utf8')).toContain('port: 4333');
  });

  it('mints each service with its own grant in the namespace, and gives the gateway signing keys but no identity key', async () => {
    await writeDeploymentBus(options);
    const authority = loadBusAuthority(options.authorityDirectory);

    for (const name of SERVICE_IDENTITIES) {
      const creds = await parseCreds(readFileSync(path.join(options.outDirectory, DEPLOYMENT_FILES.credentialsOf(name))));
      const expected = permissionsOf({ kind: 'service', name }, 'prod');
      expect({ name, pub: creds.uc.nats.pub, sub: creds.uc.nats.sub, issuer: creds.uc.iss }).toEqual({ name, pub: expected.pub, sub: expected.sub, issuer: authority.appSigner.getPublicKey() });
      expect(creds.uc.nats.issuer_account).toBe(authority.appAccount.getPublicKey());
    }
    const enrollment = loadEnrollmentAuthority(path.join(options.outDirectory, DEPLOYMENT_FILES.enrollmentAuthority));
    expect(enrollment.appSignerPublicKey).toBe(authority.appSigner.getPublicKey());
    const text = readFileSync(path.join(options.outDirectory, DEPLOYMENT_FILES.enrollmentAuthority), 'utf8');
    for (const identityKey of [authority.operator, authority.systemAccount, authority.appAccount]) expect(text).not.toContain(new TextDecoder().decode(identityKey.getSeed()));
  });
});

describe('init options', () => {
  it('defaults to what a container runs: every interface, port 4222, the store under /data, the authority beside the files', () => {
    const options = parseInitOptions({ out: 'bus' });

    expect(options).toEqual({
      outDirectory: path.resolve('bus'),
      authorityDirectory: path.resolve('bus/authority'),
      namespace: undefined,
      server: { host: '0.0.0.0', port: 4222, jetStreamDirectory: '/data/jetstream', resolverDirectory: '/data/resolver' },
    });
  });

  it('names every bad flag at once', () => {
    expect(() => parseInitOptions({ port: '0', namespace: 'Prod', 'jetstream-dir': 'data', 'tls-cert': '/tls/tls.crt' })).toThrow(
      expect.objectContaining({
        code: 'usage',
        message: expect.stringMatching(/--out: is required[\s\S]*--namespace[\s\S]*--port[\s\S]*--jetstream-dir: must be an absolute path[\s\S]*--tls-key: --tls-cert and --tls-key go together/),
      }) as Error,
    );
  });

  it('refuses an authority among the deployment files', () => {
    expect(() => parseInitOptions({ out: 'bus', 'authority-dir': './bus/' })).toThrow(/must not be the --out directory/);
  });

  it('takes TLS as the library renders it: a certificate and its key, no client verification', () => {
    expect(parseInitOptions({ out: 'bus', 'tls-cert': '/tls/tls.crt', 'tls-key': '/tls/tls.key' }).server.tls).toEqual({ certFile: '/tls/tls.crt', keyFile: '/tls/tls.key' });
  });
});

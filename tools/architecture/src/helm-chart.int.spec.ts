import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { STREAM_CATALOG, WORKSPACE_OBJECT_STORE_CATALOG } from '@switchyard/contracts';
import { workspaceRoot } from './workspace-lint';

// The chart (helm/switchyard) checked without a helm binary: its values against its schema, the
// environment it gives each component against that component's config schema, and its stream
// sizing against the catalog. The env blocks of templates/_env.tpl are written one `- name:` per
// variable so that they can be read here.

const chartRoot = path.join(workspaceRoot, 'helm/switchyard');
const read = (relative: string): string => readFileSync(path.join(workspaceRoot, relative), 'utf8');
const readChart = (relative: string): string => readFileSync(path.join(chartRoot, relative), 'utf8');

type Values = Record<string, unknown>;
const isObject = (value: unknown): value is Values => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Helm's merge of a values file over the defaults: maps merge, anything else replaces. */
function mergeValues(base: Values, override: Values): Values {
  const merged: Values = { ...base };
  for (const [key, value] of Object.entries(override)) {
    merged[key] = isObject(value) && isObject(base[key]) ? mergeValues(base[key], value) : value;
  }
  return merged;
}

const defaults = parse(readChart('values.yaml')) as Values;
const production = mergeValues(defaults, parse(readChart('values-production.yaml')) as Values);

function at(values: Values, ...keys: string[]): unknown {
  return keys.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), values);
}

function text(values: Values, ...keys: string[]): string {
  const value = at(values, ...keys);
  if (typeof value !== 'string') throw new Error(`${keys.join('.')} is not a string`);
  return value;
}

function validator(): (values: Values) => string[] {
  const validate = new Ajv({ allErrors: true }).compile(JSON.parse(readChart('values.schema.json')) as object);
  return (values) => (validate(values) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`));
}

/** Helm's named templates in a file: name → body, nested if/with/range blocks kept inside. */
function namedTemplates(source: string): Map<string, string> {
  const templates = new Map<string, string>();
  const action = /\{\{-?\s*(\/\*[\s\S]*?\*\/|[\s\S]*?)\s*-?\}\}/g;
  let open: { name: string; start: number; depth: number } | undefined;
  for (let match = action.exec(source); match; match = action.exec(source)) {
    const body = match[1] ?? '';
    if (body.startsWith('/*')) continue;
    const define = /^define\s+"([^"]+)"/.exec(body);
    if (define && !open) open = { name: define[1]!, start: action.lastIndex, depth: 0 };
    else if (open && /^(if|with|range|block|define)\b/.test(body)) open.depth += 1;
    else if (open && /^end\b/.test(body)) {
      if (open.depth === 0) {
        templates.set(open.name, source.slice(open.start, match.index));
        open = undefined;
      } else open.depth -= 1;
    }
  }
  return templates;
}

interface EnvEntry {
  readonly name: string;
  /** The key of the Secret it is read from, when it comes from a secretKeyRef. */
  readonly secretKey?: string;
}

/** The variables a component's env block sets, following its includes of other env blocks. */
function envOf(templates: Map<string, string>, block: string): EnvEntry[] {
  const body = templates.get(block);
  if (body === undefined) throw new Error(`no template ${block}`);
  const entries: EnvEntry[] = [];
  for (const include of body.matchAll(/include "(switchyard\.env\.[^"]+)"/g)) entries.push(...envOf(templates, include[1]!));
  for (const [index, chunk] of body.split(/^\s*- name: /m).entries()) {
    if (index === 0) continue;
    const name = /^([A-Z][A-Z0-9_]*)[ \t]*(\n|$)/.exec(chunk)?.[1];
    if (!name) throw new Error(`${block}: an env entry whose name is not a plain literal: ${chunk.slice(0, 40)}`);
    const secretKey = /secretKeyRef:[\s\S]*?key: ([A-Z][A-Z0-9_]*)/.exec(chunk)?.[1];
    entries.push(secretKey ? { name, secretKey } : { name });
  }
  return entries;
}

interface ConfigKeys {
  readonly all: Set<string>;
  readonly required: string[];
}

type ShapeField = { safeParse(input: unknown): { success: boolean } };

/**
 * A service's config schema, loaded by path as the chart's files are read: a static import from a
 * tool into a service would cross the module boundary.
 */
async function configKeysOf(service: string): Promise<ConfigKeys> {
  const module = (await import(path.join(workspaceRoot, 'services', service, 'src', `${service}.config.ts`))) as Record<string, unknown>;
  const schema = Object.entries(module).find(([name]) => name.endsWith('ConfigSchema'))?.[1] as { shape?: Record<string, ShapeField> } | undefined;
  if (!schema?.shape) throw new Error(`services/${service}: no *ConfigSchema object export`);
  const keys = Object.keys(schema.shape);
  return { all: new Set(keys), required: keys.filter((key) => !schema.shape![key]!.safeParse(undefined).success) };
}

/** Variables a component reads outside its config schema, and the file that reads each. */
const READ_OUTSIDE_SCHEMA: Record<string, Record<string, string | null>> = {
  common: {
    SWITCHYARD_SERVICE: 'deploy/docker/Dockerfile', // the image's CMD picks dist/services/<it>
    NODE_EXTRA_CA_CERTS: null, // Node itself
  },
  busService: { SWITCHYARD_STREAM_MAX_BYTES_CAP: 'libs/messaging/src/provisioning/stream.provisioner.ts' },
  daemon: { DAEMON_ENROLLMENT_TOKEN: 'services/daemon/src/enrollment/daemon-identity.resolver.ts' },
  migrate: { DATABASE_URL: 'libs/persistence/src/migrate.main.ts' },
};
/** Required config keys the chart does not set, and who does. */
const SET_ELSEWHERE: Record<string, Record<string, string>> = {
  daemon: { DAEMON_ID: 'services/daemon/src/enrollment/daemon-identity.resolver.ts' }, // from the enrolled identity
};
const BUS_SERVICES = ['gateway', 'queue', 'transcript', 'session-resume'];
const COMPONENTS = [...BUS_SERVICES, 'daemon'];

function readOutsideSchema(component: string): Record<string, string | null> {
  return {
    ...READ_OUTSIDE_SCHEMA['common'],
    ...(BUS_SERVICES.includes(component) ? READ_OUTSIDE_SCHEMA['busService'] : {}),
    ...(READ_OUTSIDE_SCHEMA[component] ?? {}),
  };
}

function extraEnvNames(values: Values, component: string): string[] {
  const names = (list: unknown): string[] => (Array.isArray(list) ? list.map((entry) => text(entry as Values, 'name')) : []);
  return [...names(values['extraEnv']), ...names(at(values, 'services', component, 'extraEnv'))];
}

const BINARY_UNITS: Record<string, number> = { '': 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };

/** The chart's `switchyard.bytes`: a whole number with an optional binary suffix. */
function bytes(quantity: string): number {
  const match = /^([1-9][0-9]*)(Ki|Mi|Gi|Ti)?$/.exec(quantity);
  if (!match) throw new Error(`not a quantity the chart computes with: ${quantity}`);
  return Number(match[1]) * BINARY_UNITS[match[2] ?? '']!;
}

/** The chart's `switchyard.reservedBytes`: what the services make one NATS server reserve. */
function reservedBytes(values: Values, catalog: Record<string, string>, bucketSize: string): number {
  const capSetting = text(values, 'nats', 'jetstream', 'streamMaxBytesCap');
  const cap = capSetting === '' ? Number.POSITIVE_INFINITY : bytes(capSetting);
  const streams = Object.values(catalog).reduce((sum, size) => sum + Math.min(bytes(size), cap), 0);
  return streams + Math.min(bytes(bucketSize), cap) * Number(at(values, 'nats', 'jetstream', 'workspaceBuckets'));
}

describe('the Helm chart', () => {
  const envTemplates = namedTemplates(readChart('templates/_env.tpl'));
  const jetstreamTemplates = namedTemplates(readChart('templates/_jetstream.tpl'));

  describe('values.schema.json', () => {
    const problems = validator();

    it('accepts values.yaml and values-production.yaml over it', () => {
      expect(problems(defaults)).toEqual([]);
      expect(problems(production)).toEqual([]);
    });

    it.each<[string, Values]>([
      ['a user name instead of a uid', { podSecurityContext: { runAsUser: 'node' } }],
      ['pods allowed to run as root', { podSecurityContext: { runAsNonRoot: false } }],
      ['a NATS cluster of 2, where 3-replica streams cannot be placed', { nats: { replicas: 2 } }],
      ['a volume size the chart cannot add up', { nats: { jetstream: { fileStore: { size: '10GB' } } } }],
      ['a fractional stream cap', { nats: { jetstream: { streamMaxBytesCap: '1.5Gi' } } }],
      ['a service the image does not have', { services: { scheduler: { enabled: true } } }],
      ['an env value that is not a string', { extraEnv: [{ name: 'GATEWAY_AUTOPILOT_TICK_MS', value: 0 }] }],
      ['an env entry with neither value nor valueFrom', { services: { queue: { extraEnv: [{ name: 'LOG_LEVEL' }] } } }],
      ['two daemons sharing one identity', { services: { daemon: { replicas: 2 } } }],
      ['a log level the services refuse', { logLevel: 'verbose' }],
      ['the old external NATS key', { externalNats: { url: 'nats://nats:4222' } }],
      ['a readOnlyRootFilesystem the chart sets per container', { containerSecurityContext: { readOnlyRootFilesystem: false } }],
      ['a metrics port that is no port', { metrics: { port: 0 } }],
      ['a metrics setting the chart does not read', { metrics: { path: '/internal/metrics' } }],
    ])('rejects %s', (_reason, override) => {
      expect(problems(mergeValues(defaults, override))).not.toEqual([]);
    });
  });

  describe('the environment of each component', () => {
    it('is rendered only from the env blocks of _env.tpl', () => {
      // services.yaml and migrate-job.yaml set no variable of their own: everything goes through
      // switchyard.env, which dispatches to switchyard.env.<component> and appends extraEnv.
      for (const file of ['templates/services.yaml', 'templates/migrate-job.yaml']) {
        expect(readChart(file)).toContain('include "switchyard.env" $context');
        expect(readChart(file)).not.toMatch(/name: [A-Z][A-Z0-9_]+\b/);
      }
      expect(envTemplates.get('switchyard.env')).toContain('printf "switchyard.env.%s" .name');
      expect(readChart('templates/migrate-job.yaml')).toContain('"name" "migrate"');
      expect(Object.keys(at(defaults, 'services') as Values).sort()).toEqual([...COMPONENTS].sort());
    });

    it.each(COMPONENTS)('%s: every variable is a key of its config schema or read elsewhere, and every required key is set', async (component) => {
      const keys = await configKeysOf(component);
      const outside = readOutsideSchema(component);
      const set = envOf(envTemplates, `switchyard.env.${component}`).map((entry) => entry.name);
      expect(set.filter((name) => !keys.all.has(name) && !(name in outside))).toEqual([]);
      const elsewhere = SET_ELSEWHERE[component] ?? {};
      expect(keys.required.filter((key) => !set.includes(key) && !(key in elsewhere))).toEqual([]);
      // Each exception names the file that reads (or sets) the variable: it must really do so.
      for (const [name, file] of Object.entries(outside)) if (file !== null && set.includes(name)) expect(read(file)).toContain(name);
      for (const [name, file] of Object.entries(elsewhere)) expect(read(file)).toContain(name);
      for (const values of [defaults, production]) {
        expect(extraEnvNames(values, component).filter((name) => !keys.all.has(name))).toEqual([]);
      }
    });

    it('gives every component METRICS_PORT, a container port named metrics and the prometheus.io annotations, on a port of its own', () => {
      expect(envTemplates.get('switchyard.env.common')).toMatch(/if \.root\.Values\.metrics\.enabled \}\}\n- name: METRICS_PORT\n  value: \{\{ \.root\.Values\.metrics\.port \| quote \}\}/);
      for (const component of COMPONENTS) expect(envOf(envTemplates, `switchyard.env.${component}`).map((entry) => entry.name)).toContain('METRICS_PORT');
      const services = readChart('templates/services.yaml');
      expect(services).toContain('- { name: metrics, containerPort: {{ $.Values.metrics.port }} }');
      for (const annotation of ['prometheus.io/scrape: "true"', 'prometheus.io/port: {{ $.Values.metrics.port | quote }}', 'prometheus.io/path: /metrics']) expect(services).toContain(annotation);
      // The gateway's Service (and so the Ingress) forwards its HTTP port only.
      expect(services).toContain('- { name: http, port: 80, targetPort: http }');
      expect(services).not.toMatch(/targetPort: metrics/);
      expect(at(defaults, 'metrics')).toEqual({ enabled: true, port: 9464 });
      for (const values of [defaults, production]) {
        expect(COMPONENTS.filter((component) => at(values, 'services', component, 'port') === at(values, 'metrics', 'port'))).toEqual([]);
      }
      expect(services).toContain('fail (printf "metrics.port must differ from services.%s.port');
    });

    it('migrate: sets what the migration runner reads', () => {
      expect(envOf(envTemplates, 'switchyard.env.migrate').map((entry) => entry.name)).toEqual(['DATABASE_URL']);
      expect(read('libs/persistence/src/migrate.main.ts')).toContain("process.env['DATABASE_URL']");
    });

    it('takes every secret setting from a Secret, and generates those it can', async () => {
      // Sensitive as the services' own config redaction sees them; paths to files and durations are not secrets.
      const sensitive = /(PASSWORD|SECRET|TOKEN|KEY|CREDENTIAL|DATABASE_URL|NATS_CREDS)/i;
      const generated = [...readChart('templates/secrets.yaml').matchAll(/"([A-Z][A-Z0-9_]+)" \(/g)].map((match) => match[1]);
      for (const component of BUS_SERVICES) {
        const keys = await configKeysOf(component);
        const secretSettings = [...keys.all].filter((key) => sensitive.test(key) && !/_(FILE|MS)$/.test(key));
        const env = envOf(envTemplates, `switchyard.env.${component}`);
        for (const setting of secretSettings) {
          expect({ setting, entry: env.find((entry) => entry.name === setting) }).toEqual({ setting, entry: { name: setting, secretKey: setting } });
          // DATABASE_URL is yours (database.url or .existingSecret), the OIDC client secret the provider's.
          if (!['DATABASE_URL', 'GATEWAY_OIDC_CLIENT_SECRET'].includes(setting)) expect(generated).toContain(setting);
        }
      }
    });
  });

  describe('stream sizing', () => {
    const catalog = parse(jetstreamTemplates.get('switchyard.streamCatalog') ?? '') as Record<string, string>;
    const bucketSize = (jetstreamTemplates.get('switchyard.workspaceBucketSize') ?? '').trim();

    it('knows the catalog: every stream and the skills bucket at their max_bytes', () => {
      expect(Object.fromEntries(Object.entries(catalog).map(([name, size]) => [name, bytes(size)]))).toEqual(
        Object.fromEntries(Object.values(STREAM_CATALOG).map((stream) => [stream.name, stream.maxBytes])),
      );
      expect(bytes(bucketSize)).toBe(WORKSPACE_OBJECT_STORE_CATALOG.SKILLS.maxBytes);
    });

    it.each<[string, Values]>([
      ['values.yaml', defaults],
      ['values-production.yaml', production],
    ])('%s: the capped streams fit the JetStream store, and the store its volume', (_file, values) => {
      const store = bytes(text(values, 'nats', 'jetstream', 'maxFileStore'));
      expect(reservedBytes(values, catalog, bucketSize)).toBeLessThanOrEqual(store);
      expect(store).toBeLessThanOrEqual(bytes(text(values, 'nats', 'jetstream', 'fileStore', 'size')));
    });

    it('replicates the streams in production: a cluster of 3', () => {
      expect(at(defaults, 'nats', 'replicas')).toBe(1);
      expect(at(production, 'nats', 'replicas')).toBe(3);
      expect(Object.values(STREAM_CATALOG).every((stream) => stream.replicas === 3)).toBe(true);
    });

    it('gives the services the cap the check assumed', () => {
      expect(envOf(envTemplates, 'switchyard.env.busService').map((entry) => entry.name)).toContain('SWITCHYARD_STREAM_MAX_BYTES_CAP');
      expect(envTemplates.get('switchyard.env.busService')).toContain('include "switchyard.streamMaxBytesCap" .root');
      expect(readChart('templates/services.yaml')).toContain('include "switchyard.checkStreamSizing" .');
    });
  });

  describe('deploys without the internet', () => {
    it('has no chart dependency to fetch', () => {
      expect(parse(readChart('Chart.yaml'))).not.toHaveProperty('dependencies');
    });

    it('keeps the build context ignore files alike: beside the Dockerfile (BuildKit, podman) and at the root (the legacy builder)', () => {
      expect(read('deploy/docker/Dockerfile.dockerignore')).toBe(read('.dockerignore'));
    });
  });
});

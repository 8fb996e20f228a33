import type { RedactionKind } from './secret-patterns';

/** One realistic but fake secret, in the context it is usually found in. */
export interface SecretSample {
  readonly kind: RedactionKind;
  readonly secret: string;
  /** A line of agent output holding the secret. */
  readonly text: string;
}

/** Deterministic filler in a given alphabet, so samples look real without being real. */
function filler(length: number, alphabet: string, seed: number): string {
  let state = seed;
  let result = '';
  for (let index = 0; index < length; index += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    result += alphabet[state % alphabet.length];
  }
  return result;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const URL_SAFE = `${ALNUM}_-`;
const HEX = '0123456789abcdef';

const sample = (kind: RedactionKind, secret: string, text: (secret: string) => string): SecretSample => ({ kind, secret, text: text(secret) });

const RSA_KEY = [
  '-----BEGIN RSA PRIVATE KEY-----',
  ...Array.from({ length: 6 }, (_, line) => filler(64, `${ALNUM}+/`, 900 + line)),
  '-----END RSA PRIVATE KEY-----',
].join('\n');
const OPENSSH_KEY = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  ...Array.from({ length: 4 }, (_, line) => filler(70, `${ALNUM}+/`, 950 + line)),
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n');

/**
 * Fake secrets of every kind the redactor knows, for tests of anything that must never store or
 * broadcast one (the redactor itself, the transcript projector, the gateway).
 */
export const SECRET_SAMPLES: readonly SecretSample[] = [
  sample('anthropic_api_key', `sk-ant-api03-${filler(93, URL_SAFE, 1)}AA`, (secret) => `Using ${secret} for the Messages API`),
  sample('openai_api_key', `sk-proj-${filler(156, URL_SAFE, 2)}`, (secret) => `OPENAI key in .env.local: ${secret}`),
  sample('openai_api_key', `sk-${filler(20, ALNUM, 3)}T3BlbkFJ${filler(20, ALNUM, 4)}`, (secret) => `legacy key ${secret} found in config.py`),
  sample('github_token', `ghp_${filler(36, ALNUM, 5)}`, (secret) => `git remote set-url origin https://${secret}@github.com/acme/api.git`),
  sample('github_token', `ghs_${filler(36, ALNUM, 6)}`, (secret) => `installation token ${secret} expires in 1h`),
  sample('github_pat', `github_pat_11A${filler(19, ALNUM, 7)}_${filler(59, ALNUM, 8)}`, (secret) => `gh auth login --with-token <<< ${secret}`),
  sample('gitlab_token', `glpat-${filler(20, URL_SAFE, 9)}`, (secret) => `PRIVATE-TOKEN header set to ${secret}`),
  sample('npm_token', `npm_${filler(36, ALNUM, 10)}`, (secret) => `published with ${secret} (automation token)`),
  sample('huggingface_token', `hf_${filler(34, ALNUM, 11)}`, (secret) => `huggingface-cli login --token-value ${secret}`),
  sample('slack_token', `xoxb-${filler(12, '0123456789', 12)}-${filler(13, '0123456789', 13)}-${filler(24, ALNUM, 14)}`, (secret) => `slack client = WebClient(${secret})`),
  sample('slack_webhook', `https://hooks.slack.com/services/T${filler(8, 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', 15)}/B${filler(10, 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', 16)}/${filler(24, ALNUM, 17)}`, (secret) => `curl -X POST ${secret} -d '{"text":"deployed"}'`),
  sample('stripe_key', `sk_live_${filler(24, ALNUM, 18)}`, (secret) => `stripe.api_key is ${secret}`),
  sample('stripe_key', `rk_live_${filler(24, ALNUM, 19)}`, (secret) => `restricted key ${secret} has read scope`),
  sample('stripe_key', `sk_test_${filler(24, ALNUM, 20)}`, (secret) => `test mode: ${secret}`),
  sample('stripe_webhook_secret', `whsec_${filler(32, ALNUM, 21)}`, (secret) => `verify signatures with ${secret}`),
  sample('sendgrid_api_key', `SG.${filler(22, URL_SAFE, 22)}.${filler(43, URL_SAFE, 23)}`, (secret) => `sgMail.setApiKey(${secret})`),
  sample('twilio_api_key', `SK${filler(32, HEX, 24)}`, (secret) => `Twilio API key sid ${secret} created`),
  sample('google_api_key', `AIza${filler(35, URL_SAFE, 25)}`, (secret) => `maps url: https://maps.googleapis.com/maps/api/js?libraries=places&k=${secret}`),
  sample('google_oauth_token', `ya29.a0${filler(120, URL_SAFE, 26)}`, (secret) => `gcloud auth print-access-token -> ${secret}`),
  sample('aws_access_key_id', 'AKIAIOSFODNN7EXAMPLE', (secret) => `Found credentials for ${secret} in ~/.aws/credentials`),
  sample('aws_access_key_id', `ASIA${filler(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 27)}`, (secret) => `session credentials ${secret} (temporary)`),
  sample('aws_secret_access_key', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', (secret) => `[default]\naws_secret_access_key = ${secret}\n`),
  sample(
    'jwt',
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    (secret) => `session cookie: id=${secret}`,
  ),
  sample('private_key', RSA_KEY, (secret) => `$ cat deploy/id_rsa\n${secret}\n$ `),
  sample('private_key', OPENSSH_KEY, (secret) => `writing key:\n${secret}`),
  sample('url_password', 'S3cr3t-Pa55w0rd', (secret) => `DATABASE_URL is postgres://app:${secret}@db.internal:5432/app`),
  sample('authorization', 'dXNlcjpjb3JyZWN0LWhvcnNlLWJhdHRlcnk=', (secret) => `> GET /api HTTP/1.1\n> Authorization: Basic ${secret}\n`),
  sample('authorization', `${filler(40, ALNUM, 28)}`, (secret) => `curl -H "Authorization: Bearer ${secret}" https://api.example.com`),
  sample('bearer_token', `${filler(32, HEX, 29)}`, (secret) => `request failed (401) with bearer ${secret}`),
  sample('password', 'hunter2hunter2', (secret) => `DB_PASSWORD=${secret} npm run migrate`),
  sample('password', 'correct horse battery staple', (secret) => `{"user": "ops", "password": "${secret}"}`),
  sample('password', 'Tr0ub4dor&3', (secret) => `smtp:\n  host: mail.example.com\n  password: ${secret}\n`),
  sample('password', 'p4ssw0rd!x', (secret) => `mysql --user root --password ${secret} app`),
  sample('secret', `${filler(40, URL_SAFE, 30)}`, (secret) => `https://oauth2.example.com/token?client_id=abc&client_secret=${secret}&grant_type=code`),
  sample('secret', `${filler(48, ALNUM, 31)}`, (secret) => `JWT_SECRET='${secret}'`),
  sample('token', `1//0g${filler(60, URL_SAFE, 32)}`, (secret) => `{\n  "refresh_token": "${secret}",\n  "scope": "openid"\n}`),
  sample('token', `${filler(36, HEX, 33)}`, (secret) => `echo '{\\"auth_token\\":\\"${secret}\\"}' > creds.json`),
  sample('api_key', `${filler(32, HEX, 34)}`, (secret) => `< X-Api-Key: ${secret}\n< Content-Type: application/json`),
  sample('api_key', `${filler(40, ALNUM, 35)}`, (secret) => `export DATADOG_API_KEY=${secret}`),
];

/** Distinct kinds covered by SECRET_SAMPLES (exact secrets are the caller's, so not here). */
export const SAMPLED_KINDS: readonly RedactionKind[] = [...new Set(SECRET_SAMPLES.map((entry) => entry.kind))];

/** How agy's print mode writes its stdout. */
export type AntigravityOutputMode = 'text' | 'stream-json';

/**
 * The first agy with `--output-format stream-json` (release notes of
 * google-antigravity/antigravity-cli 1.1.8). Older builds refuse the flag ("flags provided but not
 * defined", exit 2), so they get plain text.
 */
export const ANTIGRAVITY_STREAM_JSON_SINCE = '1.1.8';

function parseVersion(text: string): readonly [number, number, number] | undefined {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** Stream JSON from 1.1.8 on; plain text before, and when the version is unknown or unreadable. */
export function antigravityOutputMode(cliVersion: string | undefined): AntigravityOutputMode {
  const version = cliVersion === undefined ? undefined : parseVersion(cliVersion);
  const since = parseVersion(ANTIGRAVITY_STREAM_JSON_SINCE)!;
  if (!version) return 'text';
  for (let part = 0; part < 3; part += 1) {
    if (version[part]! !== since[part]!) return version[part]! > since[part]! ? 'stream-json' : 'text';
  }
  return 'stream-json';
}

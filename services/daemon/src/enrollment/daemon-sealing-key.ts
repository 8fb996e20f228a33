import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCurveSeed, curveKeyHolder, type CurveKeyHolder } from '@switchyard/messaging';
import { identityDirectory } from './daemon-identity.store';

/**
 * The curve key the queue seals this daemon's task secrets to: the enrolled one
 * (`DAEMON_CURVE_SEED_FILE`), or for a daemon given its id directly, one made on first boot in
 * `<home>/identity/curve.nk` (0600) and kept, since the queue refuses a daemon id that changes key.
 */
export function loadSealingKey(options: { readonly seedFile: string | undefined; readonly home: string }): CurveKeyHolder {
  if (options.seedFile !== undefined) {
    if (!existsSync(options.seedFile)) throw new Error(`DAEMON_CURVE_SEED_FILE ${options.seedFile} does not exist: enroll this daemon again`);
    return curveKeyHolder(readFileSync(options.seedFile, 'utf8'));
  }
  const directory = identityDirectory(options.home);
  const file = path.join(directory, 'curve.nk');
  if (!existsSync(file)) {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    chmodSync(directory, 0o700);
    writeFileSync(file, `${createCurveSeed()}\n`, { mode: 0o600, flag: 'wx' });
  }
  return curveKeyHolder(readFileSync(file, 'utf8'));
}

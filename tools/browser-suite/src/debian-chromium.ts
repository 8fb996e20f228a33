import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`; `.ci/run` installs it when missing). */
export const CHROMIUM_PATH = process.env['SWITCHYARD_CHROMIUM'] ?? '/usr/bin/chromium';

export class ChromiumMissingError extends Error {
  override readonly name = 'ChromiumMissingError';
}

/**
 * Headless Chromium as this machine can run it: as root without a sandbox, with none of the
 * background traffic (updates, sync, safe browsing) a closed network refuses, and a fresh profile.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new ChromiumMissingError(`no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set SWITCHYARD_CHROMIUM)`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

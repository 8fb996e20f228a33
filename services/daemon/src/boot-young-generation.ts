import { setFlagsFromString } from 'node:v8';

/**
 * V8's default `--semi-space-growth-factor` (Node 20, V8 11.3): a young generation with a high
 * survival rate doubles its semi-spaces, up to 16 MiB each.
 */
const DEFAULT_SEMI_SPACE_GROWTH_FACTOR = 2;

/**
 * Booting, the daemon compiles ~1,400 modules and builds its schemas: nearly everything it
 * allocates then lives on, and V8 reads that survival as a reason to grow the young generation to
 * two 16 MiB semi-spaces, which then stay committed in an idle daemon (~30 MiB of its RSS, for
 * garbage it no longer makes). So the young generation may not grow while the daemon boots; once
 * it serves, V8's own heuristic applies again and grows it for a load that needs it. Imported
 * first by `main.ts`, before any other module is required.
 */
setFlagsFromString('--semi-space-growth-factor=1');

/** Called once the daemon is up: the young generation grows again under load. */
export function releaseYoungGeneration(): void {
  setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_SEMI_SPACE_GROWTH_FACTOR}`);
}

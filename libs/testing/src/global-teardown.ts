import { runTeardowns } from './global-teardown-registry';

export default async function globalTeardown(): Promise<void> {
  await runTeardowns();
}

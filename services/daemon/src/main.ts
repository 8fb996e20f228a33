// First: it keeps the young generation small while the modules load (see the file).
import { releaseYoungGeneration } from './boot-young-generation';
import { bootstrapService } from '@switchyard/service-kit';
import { daemonApp } from './daemon.app';
import { runEnrollCommand } from './enrollment/enroll.command';
import { resolveDaemonEnvironment } from './enrollment/daemon-identity.resolver';

async function main(): Promise<void> {
  // `npm run daemon -- enroll --gateway <url> --token <sye_...>`: enroll this machine, then exit.
  if (process.argv[2] === 'enroll') {
    process.exitCode = await runEnrollCommand(process.argv.slice(3), process.env);
    return;
  }
  let env: NodeJS.ProcessEnv;
  try {
    env = await resolveDaemonEnvironment(process.env);
  } catch (error) {
    process.stderr.write(`daemon: ${(error as Error).message}\n`);
    process.exit(1);
  }
  Object.assign(process.env, env);
  await bootstrapService(daemonApp);
  releaseYoungGeneration();
}

void main();

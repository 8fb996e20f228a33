import { runBusSetup } from './bus-setup.command';

// `npm run bus -- <command>`: see USAGE in bus-setup.command.ts.
void runBusSetup(process.argv.slice(2), process.env, {
  out: (line) => void process.stdout.write(`${line}\n`),
  error: (line) => void process.stderr.write(`${line}\n`),
}).then((code) => {
  process.exitCode = code;
});

// `ark`: the command line (src/cli/commands.ts), on this process's arguments, streams and environment.
import { runCli } from './commands.ts';

process.exit(
  await runCli(process.argv.slice(2), {
    out: (line) => console.log(line),
    err: (text) => process.stderr.write(text),
    env: process.env,
  }),
);

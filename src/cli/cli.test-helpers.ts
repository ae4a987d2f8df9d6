import { spawnSync } from 'node:child_process';
import { nodeArgsFor } from '../../test/entry.ts';
import { runCli } from './commands.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs an `ark` command in this process (the same `runCli` the binary runs, with its output captured), against the
 * test database unless `env` says otherwise. Starting a process per command cost a second of CPU each; the binary
 * itself — exit codes and streams of a real process — is covered by `arkProcess`.
 */
export async function ark(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    out: (line) => {
      stdout += `${line}\n`;
    },
    err: (text) => {
      stderr += text;
    },
    env: { ...process.env, DATABASE_URL: process.env.ARK_TEST_DATABASE_URL ?? '', ...env },
  });
  return { code, stdout, stderr };
}

/** Runs `ark` as its own process, as a person at a terminal does. */
export function arkProcess(args: string[], env: Record<string, string> = {}): CliResult {
  const res = spawnSync(process.execPath, [...nodeArgsFor('src/cli/main.ts'), ...args], {
    env: { ...process.env, DATABASE_URL: process.env.ARK_TEST_DATABASE_URL ?? '', ...env },
    encoding: 'utf8',
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

// Runs the mock (scripts/mock/main.ts: `prism mock` behind the API's CORS policy) as a child process
// on a free port, the way `npm run mock` does.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/shared/ports.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MOCK = fileURLToPath(new URL('../../scripts/mock/main.ts', import.meta.url));

export interface RunningPrism {
  readonly baseUrl: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export async function startPrism(extraArgs: string[] = [], timeoutMs = 45_000): Promise<RunningPrism> {
  const port = await freePort();
  const args = [MOCK, '-p', String(port), '-h', '127.0.0.1', ...extraArgs];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Prism logs every request; the pipes must be drained or it stalls. Keep the tail for errors.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );

  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (exited === undefined) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(timer);
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(`prism exited with ${exited} before answering:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/health/live`)).ok) return { baseUrl, pid: child.pid!, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`prism did not answer within ${timeoutMs} ms:\n${output}`);
}

// esbuild for the bundles the server builds at start-up (the dashboard, the school picker). Its
// builds share one child process, which is stopped once no build is running, so that it holds
// no memory while the API serves. Each bundle stopping esbuild itself would stop the other's
// build half-way when both run at once (at start-up they do).
import * as esbuild from 'esbuild';

/** Browsers of the last two years: no transpiling of what they all run. */
export const BROWSER_TARGETS = ['chrome120', 'firefox121', 'safari17'];

let running = 0;

export async function bundle(options: esbuild.BuildOptions & { write: false }): Promise<esbuild.OutputFile[]> {
  running++;
  try {
    return (await esbuild.build(options)).outputFiles;
  } finally {
    if (--running === 0) await esbuild.stop();
  }
}

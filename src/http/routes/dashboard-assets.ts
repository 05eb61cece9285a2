// The dashboard's files: the page (src/dashboard/index.html) and its script and stylesheet,
// bundled from src/dashboard/ by esbuild when the server starts. Bundling here, not in a build
// step, keeps `npm start` the only command (as everything else in this tree: Node runs the
// TypeScript source) and the bundle always in step with the source and the generated client.
// esbuild works in a child process of its own (off the event loop), about 0.2 s, once per
// process; it is stopped after the build so that it holds no memory while the API serves.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { Precompressed } from '../compression/precompressed.ts';

export interface DashboardFile {
  readonly body: Precompressed;
  readonly contentType: string;
}

export interface DashboardAssets {
  readonly page: Precompressed;
  /** File name (with its content hash) → file. */
  readonly files: ReadonlyMap<string, DashboardFile>;
}

const SOURCE = fileURLToPath(new URL('../../dashboard/', import.meta.url));

let built: Promise<DashboardAssets> | undefined;

/** The bundled dashboard, built on the first call (the composition root calls it at start-up). */
export function dashboardAssets(): Promise<DashboardAssets> {
  built ??= build().catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}

async function build(): Promise<DashboardAssets> {
  try {
    const result = await esbuild.build({
      entryPoints: [
        { in: `${SOURCE}main.ts`, out: 'app' },
        { in: `${SOURCE}dashboard.css`, out: 'app' },
      ],
      bundle: true,
      write: false,
      outdir: 'out',
      format: 'esm',
      platform: 'browser',
      // Browsers of the last two years: no transpiling of what they all run.
      target: ['chrome120', 'firefox121', 'safari17'],
      minify: true,
      legalComments: 'none',
      logLevel: 'silent',
    });
    const files = new Map<string, DashboardFile>();
    const names: Record<string, string> = {};
    for (const output of result.outputFiles) {
      const extension = output.path.endsWith('.css') ? 'css' : 'js';
      const hash = createHash('sha256').update(output.contents).digest('base64url').slice(0, 12);
      const name = `app-${hash}.${extension}`;
      names[`app.${extension}`] = name;
      files.set(name, {
        body: new Precompressed(Buffer.from(output.contents)),
        contentType: extension === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      });
    }
    const template = await readFile(`${SOURCE}index.html`, 'utf8');
    const page = template.replace(/\{\{(app\.(?:js|css))\}\}/g, (_, file: string) => {
      const name = names[file];
      if (!name) throw new Error(`the dashboard bundle has no ${file}`);
      return name;
    });
    return { page: new Precompressed(page), files };
  } finally {
    await esbuild.stop();
  }
}

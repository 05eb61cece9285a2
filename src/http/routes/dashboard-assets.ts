// The dashboard's files: the page (src/dashboard/index.html) and its script and stylesheet,
// bundled from src/dashboard/ by esbuild when the server starts. Bundling here, not in a build
// step, keeps `npm start` the only command (as everything else in this tree: Node runs the
// TypeScript source) and the bundle always in step with the source and the generated client.
// esbuild works in a child process of its own (off the event loop), about 0.2 s, once per
// process; it is stopped after the build so that it holds no memory while the API serves
// (bundler.ts).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Precompressed } from '../compression/precompressed.ts';
import { BROWSER_TARGETS, bundle } from './bundler.ts';

export interface DashboardFile {
  readonly body: Precompressed;
  readonly contentType: string;
}

export interface DashboardAssets {
  readonly page: Precompressed;
  /** The try-it frame (src/dashboard/picker-frame.html): the school picker as a customer's page runs it. */
  readonly frame: Precompressed;
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
  const outputs = await bundle({
    entryPoints: [
      { in: `${SOURCE}main.ts`, out: 'app' },
      { in: `${SOURCE}dashboard.css`, out: 'app' },
      { in: `${SOURCE}picker-frame.ts`, out: 'frame' },
    ],
    bundle: true,
    write: false,
    outdir: 'out',
    format: 'esm',
    platform: 'browser',
    target: BROWSER_TARGETS,
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const files = new Map<string, DashboardFile>();
  const names: Record<string, string> = {};
  for (const output of outputs) {
    const extension = output.path.endsWith('.css') ? 'css' : 'js';
    const entry = /([a-z]+)\.(?:css|js)$/.exec(output.path)![1]!;
    const hash = createHash('sha256').update(output.contents).digest('base64url').slice(0, 12);
    const name = `${entry}-${hash}.${extension}`;
    names[`${entry}.${extension}`] = name;
    files.set(name, {
      body: new Precompressed(Buffer.from(output.contents)),
      contentType: extension === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
    });
  }
  const fill = async (template: string) =>
    new Precompressed(
      (await readFile(`${SOURCE}${template}`, 'utf8')).replace(/\{\{([a-z]+\.(?:js|css))\}\}/g, (_, file: string) => {
        const name = names[file];
        if (!name) throw new Error(`the dashboard bundle has no ${file}`);
        return name;
      }),
    );
  return { page: await fill('index.html'), frame: await fill('picker-frame.html'), files };
}

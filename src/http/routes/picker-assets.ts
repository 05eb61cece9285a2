// The school picker's script (clients/school-picker/, GET /picker/v1/school-picker.js), bundled
// into one ES module by esbuild when the server starts, as the dashboard is (dashboard-assets.ts):
// no build output in the tree, and the script always in step with its source. Its ETag is its
// content hash, so a browser revalidates an hour-old copy with a 304 until the script changes.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { BROWSER_TARGETS, bundle } from './bundler.ts';

export interface PickerAssets {
  readonly script: Buffer;
  /** A strong validator: the script's SHA-256, quoted. */
  readonly etag: string;
}

const ENTRY = fileURLToPath(new URL('../../../clients/school-picker/src/index.ts', import.meta.url));

let built: Promise<PickerAssets> | undefined;

/** The bundled picker, built on the first call (the composition root calls it at start-up). */
export function pickerAssets(): Promise<PickerAssets> {
  built ??= build().catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}

async function build(): Promise<PickerAssets> {
  const [output] = await bundle({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    outfile: 'school-picker.js',
    format: 'esm',
    platform: 'browser',
    target: BROWSER_TARGETS,
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  if (!output) throw new Error('the school picker bundle is empty');
  const script = Buffer.from(output.contents);
  const hash = createHash('sha256').update(script).digest('base64url');
  return { script, etag: `"${hash}"` };
}

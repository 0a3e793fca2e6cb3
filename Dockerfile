# One container per instance. Build: docker build -t exchange-bot .
#
# Three stages on one pinned base (Node as package-lock.json's `node` dev dependency has it;
# the image's digest could not be looked up where this was written: pin it with
# `node:24.21.0-bookworm-slim@sha256:…` once pulled). Only the last stage ships: the compiler
# toolchain and npm's cache stay in the stages before it.

# Production dependencies, installed where the toolchain is: sqlite3 compiles its native module
# when no prebuilt binary fits this Node. The run stage copies node_modules from here, built on
# the same base (same glibc), so the module loads there. npm's cache is cleaned so this stage's
# layer, reused from the build cache, stays small; it is never shipped.
FROM node:24.21.0-bookworm-slim AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# .npmrc: an install script not listed in package.json's allowScripts fails the build.
COPY package.json package-lock.json .npmrc ./
# Production dependencies only; Node itself comes from the image, not the `node` dev dependency.
# --omit=optional leaves out what only builds: sqlite3's optional node-gyp (npm compiles with its
# own) and TypeScript, an optional peer of a Mini App dependency (valibot): 68 packages, ~36 MB.
# test/production-graph.test.ts checks that nothing else is optional. A compiled sqlite3 leaves its
# sources and object files beside the binding (~20 MB); only build/Release/node_sqlite3.node loads.
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund \
 && npm cache clean --force \
 && cd node_modules/sqlite3 \
 && rm -rf deps build/Release/obj build/Release/obj.target build/Release/.deps build/Release/*.a

# Build stage: TypeScript → JavaScript (dist/), as `npm run build` does outside Docker. Node runs
# the compiled files, not the sources: its type stripping costs ~30 MiB RSS in the running bot
# (bench/README.md). tsc needs no native module: --ignore-scripts skips sqlite3's compile and the
# `node` dev dependency's download of a second Node (the image's Node runs the scripts).
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
# .dockerignore leaves out src/sandbox, src/telegram-double and src/demo; tsconfig.build.json
# does too. test/production-graph.test.ts builds and runs this stage's dist/ as laid out below.
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# The run stage: no apt, no compiler, no npm install; what runs is copied in.
FROM node:24.21.0-bookworm-slim

WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=deps /app/node_modules ./node_modules

# What `node dist/process/main.js` reads at run time: the compiled code and the locales (src/bot/i18n.ts
# finds them as ../../locales from itself, so dist/ sits where src/ does). No sources.
COPY locales ./locales
COPY --from=build /app/dist ./dist
# So that `npm start` works in the image too: with no compiler here, its first step runs this dist/.
COPY scripts ./scripts

# The embedded store lives on a volume, owned by the unprivileged user.
RUN mkdir -p /app/data && chown -R node:node /app/data
VOLUME ["/app/data"]
USER node
# Docker's stop signal, said rather than assumed: on SIGTERM the bot stops taking updates and
# drains the ones in flight within SHUTDOWN_TIMEOUT_SECONDS (25 s by default). A Dockerfile cannot
# set how long Docker waits before SIGKILL (10 s unless told): give it more than that deadline,
# `docker run --stop-timeout 35` or compose's `stop_grace_period: 35s` (deploy/compose.yaml).
STOPSIGNAL SIGTERM

# MALLOC_ARENA_MAX=2 as npm start sets it: glibc's malloc keeps one arena per thread by default
# (SQLite's and V8's worker threads), ~15 MiB more RSS under load (bench/README.md, "Heap flags").
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    STORE_URL=sqlite:///app/data/bot.sqlite \
    PORT=8080
EXPOSE 8080

# Liveness, in either mode (the HTTP server runs on PORT in polling mode too): /healthz answers
# while the process is up and its event loop turns. Not /readyz: an unhealthy container is
# restarted, and a Redis or Telegram outage is not cured by restarting the bot; readiness is for
# the load balancer to route on.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"

# The heap and WebAssembly flags of `npm start` (package.json; test/production-graph.test.ts keeps the two equal):
# a young generation of 32 MiB instead of V8's 128 and an old space let grow by half its live size
# per GC, not up to four times. Chosen by measurement (bench/README.md, "Heap flags").
# --liftoff-only: WebAssembly (the charts' resvg) stays in V8's baseline compiler; optimising it
# held ~50 MiB more for a chart drawn ~10 ms faster (bench/README.md, "(h) Price charts").
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=50", "--liftoff-only", "dist/process/main.js"]

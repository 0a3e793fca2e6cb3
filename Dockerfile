# One container per instance. Build: docker build -t exchange-bot .

# Build stage: TypeScript → JavaScript (dist/), as `npm run build` does outside Docker. Node runs
# the compiled files, not the sources: its type stripping costs ~30 MiB RSS in the running bot
# (bench/README.md). tsc needs no native module: --ignore-scripts skips sqlite3's compile and the
# `node` dev dependency's download of a second Node (the image's Node runs the scripts).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
# .dockerignore leaves out src/sandbox, src/telegram-double and src/demo; tsconfig.build.json
# does too. test/production-graph.test.ts builds and runs this stage's dist/ as laid out below.
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:24-slim

# sqlite3 is compiled when no prebuilt binary can be fetched: keep the toolchain for that step only.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; Node itself comes from the image, not the `node` dev dependency.
RUN npm ci --omit=dev --no-audit --no-fund \
 && apt-get purge -y python3 make g++ && apt-get autoremove -y

# What `node dist/main.js` reads at run time: the compiled code and the locales (src/bot/i18n.ts
# finds them as ../../locales from itself, so dist/ sits where src/ does). No sources.
COPY locales ./locales
COPY --from=build /app/dist ./dist
# So that `npm start` works in the image too: with no compiler here, its first step runs this dist/.
COPY scripts ./scripts

# The embedded store lives on a volume, owned by the unprivileged user.
RUN mkdir -p /app/data && chown -R node:node /app/data
VOLUME ["/app/data"]
USER node

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

# The heap flags of `npm start` (package.json; test/production-graph.test.ts keeps the two equal):
# a young generation of 32 MiB instead of V8's 128 and an old space let grow by half its live size
# per GC, not up to four times. Chosen by measurement (bench/README.md, "Heap flags").
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=50", "dist/main.js"]

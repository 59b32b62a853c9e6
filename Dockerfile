# Production image: builds the app and serves it; migrations run at start with `prisma migrate deploy`.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
# The repository's .npmrc points node-gyp at Debian's Node headers; the official image keeps them in /usr/local.
ENV npm_config_nodedir=/usr/local
COPY package.json package-lock.json .npmrc ./
COPY scripts ./scripts
COPY lib/runtime ./lib/runtime
COPY prisma ./prisma
COPY prisma.config.ts tsconfig.json ./
RUN npm ci --no-audit --no-fund
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 PROBEBOOK_DATA_DIR=/var/lib/probebook PROBEBOOK_LOCAL_AGENT=0
COPY --from=build /app /app
RUN mkdir -p /var/lib/probebook
EXPOSE 3000
# scripts/start.ts applies migrations with `prisma migrate deploy`, seeds, then runs `next start`.
CMD ["npx", "tsx", "scripts/start.ts"]

# Lectio: one image for the API (default command) and the workers (`npm run worker`).
# Mirrors docs/deploy.md. It was written without a container runtime at hand and has not been
# built; treat it as a starting point and check it on your own infrastructure.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && node scripts/build-server.mjs && npm prune --omit=dev

FROM node:22-bookworm-slim
# MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_ and the node flags below: scripts/build-server.mjs (SERVER_ENV, SERVER_NODE_FLAGS).
ENV NODE_ENV=production APP_ENV=production HOST=0.0.0.0 PORT=8080 SKIP_BUILD=1 MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/dist-server ./dist-server
USER node
EXPOSE 8080
# The compiled server, started directly (npm start would need the build tools, pruned above), so
# SIGTERM reaches it and it drains (SHUTDOWN_GRACE_SECONDS). Workers: dist-server/worker.mjs.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=4", "--wasm-num-compilation-tasks=1", "--heap-growing-percent=100", "--expose-gc", "dist-server/main.mjs"]

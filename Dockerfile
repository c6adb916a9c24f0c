# Lectio: one image for the API (default command) and the workers (`npm run worker`).
# Mirrors docs/deploy.md. It was written without a container runtime at hand and has not been
# built; its build commands were run by hand on Debian bookworm (docs/deploy.md, "The image").
FROM node:22-trixie-slim AS build
# The offline voice's native speech path: eSpeak-NG kept running in C hosts that encode their own
# MP3 (server/tts/espeak-host.c), compiled here against Debian 13's eSpeak-NG 1.52 (linked
# statically; the portable path's version) and libmp3lame.
RUN apt-get update \
  && apt-get install -y --no-install-recommends gcc libc6-dev libespeak-ng-dev libmp3lame-dev \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && node scripts/build-server.mjs
# The host, built once into node_modules/.cache/lectio/ beside the voice data it reads (kept by the
# prune below and copied with node_modules): the runtime, which has no compiler, finds it there
# (server/tts/espeak-host-build.ts).
RUN node --import tsx --input-type=module -e "const { espeakHostBinary } = await import('./server/tts/espeak-host-build.ts'); const b = await espeakHostBinary(); if (b.binary === null) { console.error(b.reason); process.exit(1); } console.log(b.binary);"
RUN npm prune --omit=dev && test -n "$(find node_modules/.cache/lectio -name 'espeak-host-*' -perm -u+x)"

FROM node:22-trixie-slim
# The shared libraries the host calls (eSpeak-NG's playback and speed-up libraries, LAME):
# ESPEAK_ENGINE=auto takes the native path. Its voice data sits beside it.
RUN apt-get update \
  && apt-get install -y --no-install-recommends libpcaudio0 libsonic0 libmp3lame0 \
  && rm -rf /var/lib/apt/lists/*
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

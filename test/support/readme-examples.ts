/**
 * The README's examples as data: every ```sh block that shows commands at a `$ ` prompt, each command with the
 * output the README says it prints, and whether its output matches what it really printed. Pure: the runner in
 * test/e2e/readme-examples.test.ts runs the commands.
 *
 * The README's conventions, which this enforces:
 * - A command starts at `$ ` and continues on the next line while a line ends with `\`.
 * - Its output is every line up to the next `$ ` line or the end of the block, trailing blank lines dropped.
 * - `...` in an output stands for any text (a cut, or a value that changes from run to run, like a date).
 * - A block preceded by `<!-- not run: reason -->` is shown to readers but not run; the runner lists it.
 */

export interface Example {
  /** 1-based line of the `$ ` in the README. */
  readonly line: number;
  readonly command: string;
  readonly expected: string;
}

export interface ExampleBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly examples: readonly Example[];
  /** Set when the README says the block is not run, with why. */
  readonly notRun?: string;
}

const notRunMark = /^<!--\s*not run:\s*(.+?)\s*-->$/;

/** Every ```sh block with at least one `$ ` command, in README order. */
export function parseExamples(markdown: string): ExampleBlock[] {
  const lines = markdown.split('\n');
  const blocks: ExampleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== '```sh') continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]?.trim() !== '```'; i++) body.push(lines[i] as string);
    if (!body.some((l) => l.startsWith('$ '))) continue;
    const mark = notRunMark.exec(lines[start - 1]?.trim() ?? '');
    blocks.push({ line: start + 1, examples: examplesIn(body, start + 2), ...(mark ? { notRun: mark[1] } : {}) });
  }
  return blocks;
}

function examplesIn(body: readonly string[], firstLine: number): Example[] {
  const examples: Example[] = [];
  let i = 0;
  if (!body[0]?.startsWith('$ ')) {
    throw new Error(`README line ${firstLine}: a block of examples must start with a command at a "$ " prompt`);
  }
  while (i < body.length) {
    const line = firstLine + i;
    const command = [(body[i] as string).slice(2)];
    while ((body[i] as string).endsWith('\\') && i + 1 < body.length) command.push(body[++i] as string);
    const output: string[] = [];
    for (i++; i < body.length && !(body[i] as string).startsWith('$ '); i++) output.push(body[i] as string);
    while (output.length > 0 && output[output.length - 1]?.trim() === '') output.pop();
    examples.push({ line, command: command.join('\n'), expected: output.join('\n') });
  }
  return examples;
}

/** Output as compared: CRLF (HTTP headers) as LF, no trailing spaces, no blank lines before or after. */
export function normalizeOutput(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n')
    .replace(/^\n+/, '')
    .replace(/\n+$/, '');
}

/**
 * True when `actual` is what `expected` shows: `...` inside a line stands for any text; a line that is only `...`
 * for any number of whole lines, none included (the headers that `curl -i` prints, say).
 */
export function outputMatches(expected: string, actual: string): boolean {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const lines = normalizeOutput(expected).split('\n');
  const pattern = lines
    .map((line, i) => {
      if (line === '...') {
        if (lines.length === 1) return '[\\s\\S]*';
        return i === 0 ? '(?:[^\\n]*\\n)*?' : '(?:\\n[^\\n]*)*?';
      }
      const separator = i === 0 || (i === 1 && lines[0] === '...') ? '' : '\\n';
      return separator + line.split('...').map(literal).join('[\\s\\S]*?');
    })
    .join('');
  return new RegExp(`^${pattern}$`).test(normalizeOutput(actual));
}

/**
 * The examples of the README and the docs/ pages as data: every ```sh block that shows commands at a `$ ` prompt,
 * each command with the output the page says it prints, and whether its output matches what it really printed.
 * Pure: the runner in test/support/doc-example-pages.ts runs the commands.
 *
 * The pages' conventions, which this enforces:
 * - A command starts at `$ ` and continues on the next line while a line ends with `\`.
 * - Its output is every line up to the next `$ ` line or the end of the block, trailing blank lines dropped.
 * - `...` in an output stands for any text (a cut, or a value that changes from run to run, like a date).
 * - A block preceded by `<!-- not run: reason -->` is shown to readers but not run; the runner lists it.
 */

export interface Example {
  /** 1-based line of the `$ ` in the page. */
  readonly line: number;
  readonly command: string;
  readonly expected: string;
}

export interface ExampleBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly examples: readonly Example[];
  /** Set when the page says the block is not run, with why. */
  readonly notRun?: string;
}

const notRunMark = /^<!--\s*not run:\s*(.+?)\s*-->$/;

/** Every ```sh block with at least one `$ ` command, in page order; `page` names the page in errors. */
export function parseExamples(markdown: string, page: string): ExampleBlock[] {
  const lines = markdown.split('\n');
  const blocks: ExampleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== '```sh') continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]?.trim() !== '```'; i++) body.push(lines[i] as string);
    if (!body.some((l) => l.startsWith('$ '))) continue;
    const mark = notRunMark.exec(lines[start - 1]?.trim() ?? '');
    const examples = examplesIn(body, start + 2, page);
    blocks.push({ line: start + 1, examples, ...(mark ? { notRun: mark[1] } : {}) });
  }
  return blocks;
}

function examplesIn(body: readonly string[], firstLine: number, page: string): Example[] {
  const examples: Example[] = [];
  let i = 0;
  if (!body[0]?.startsWith('$ ')) {
    throw new Error(`${page} line ${firstLine}: a block of examples must start with a command at a "$ " prompt`);
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

/** The lines of a page outside its fenced code blocks, with their 1-based line numbers. */
function proseLines(markdown: string): { line: number; text: string }[] {
  const prose: { line: number; text: string }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, i) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    else if (!fenced) prose.push({ line: i + 1, text });
  });
  return prose;
}

/** The anchors a page's headings get, as GitHub makes them (`## C1: insert a row` → `c1-insert-a-row`). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

export interface Link {
  readonly line: number;
  /** As written: `query-grammar.md#escaping`, `#guards`, `https://...`. */
  readonly target: string;
}

/** Every inline link `[text](target)` of a page, outside code blocks and code spans. */
export function linksIn(markdown: string): Link[] {
  return proseLines(markdown).flatMap(({ line, text }) =>
    [...text.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ line, target: m[1] as string })),
  );
}

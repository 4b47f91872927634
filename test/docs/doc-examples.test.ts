/**
 * The documentation example parser and matcher (test/support/doc-examples.ts): how commands, outputs, cuts and
 * blocks that are not run are read, and how headings and links are found. Pure. test/docs/docs.test.ts checks
 * the pages themselves.
 */
import { headingAnchors, linksIn, normalizeOutput, outputMatches, parseExamples } from '../support/doc-examples';

const fence = '```';

describe('parseExamples', () => {
  it('reads commands at $ prompts, continued lines, and their outputs', () => {
    const markdown = [
      'Intro',
      `${fence}sh`,
      "$ curl 'http://localhost:3000/res/Publisher/1'",
      '<readResponse/>',
      '',
      '$ curl -X PUT \\',
      "    -d 'a=1' http://localhost:3000/res/Publisher",
      'HTTP/1.1 200 OK',
      '',
      '{"rowsAffected":1}',
      '',
      '$ echo done',
      fence,
      `${fence}sh`,
      'npm start',
      fence,
    ].join('\n');
    expect(parseExamples(markdown, 'docs/x.md')).toEqual([
      {
        line: 2,
        examples: [
          { line: 3, command: "curl 'http://localhost:3000/res/Publisher/1'", expected: '<readResponse/>' },
          {
            line: 6,
            command: "curl -X PUT \\\n    -d 'a=1' http://localhost:3000/res/Publisher",
            expected: 'HTTP/1.1 200 OK\n\n{"rowsAffected":1}',
          },
          { line: 12, command: 'echo done', expected: '' },
        ],
      },
    ]);
  });

  it('keeps a block marked as not run, with the reason', () => {
    const markdown = ['<!-- not run: needs S3 -->', `${fence}sh`, '$ curl x', 'y', fence].join('\n');
    expect(parseExamples(markdown, 'docs/x.md')).toEqual([
      { line: 2, notRun: 'needs S3', examples: [{ line: 3, command: 'curl x', expected: 'y' }] },
    ]);
  });

  it('refuses a block with text before its first command', () => {
    expect(() => parseExamples([`${fence}sh`, 'stray', '$ curl x', fence].join('\n'), 'docs/x.md')).toThrow(
      'docs/x.md line 2: a block of examples must start with a command at a "$ " prompt',
    );
  });
});

describe('outputMatches', () => {
  it.each([
    ['a', 'a', true],
    ['a', 'b', false],
    ['a...c', 'abbbc', true],
    ['a...c', 'abbb', false],
    [
      'HTTP/1.1 400 Bad Request\ndate: ...\n\nRefusing',
      'HTTP/1.1 400 Bad Request\r\ndate: Mon\r\n\r\nRefusing\n',
      true,
    ],
    ['x (y) [z] $1 ^', 'x (y) [z] $1 ^', true],
    ['line  ', 'line', true],
    ['{"id":1,...}', '{"id":1,"a":2}', true],
    ['{"id":1,...}', '{"id":12,"a":2}', false],
    ['HTTP/1.1 200 OK\n...\n\nbody', 'HTTP/1.1 200 OK\na: 1\nb: 2\n\nbody', true],
    ['HTTP/1.1 200 OK\n...\nb: 2\n...\n\nbody', 'HTTP/1.1 200 OK\nb: 2\n\nbody', true],
    ['HTTP/1.1 200 OK\n...\nb: 2\n...\n\nbody', 'HTTP/1.1 200 OK\na: 1\nb: 3\n\nbody', false],
    ['...\nlast', 'first\nsecond\nlast', true],
    ['...\nlast', 'last', true],
    ['first\n...', 'first', true],
    ['first\n...', 'first\nmore', true],
    ['...', 'anything\nat all', true],
    ['a\n...\nc', 'a\nbc', false],
  ])('%j against %j: %p', (expected, actual, result) => {
    expect(outputMatches(expected, actual)).toBe(result);
  });

  it('normalizes line ends and trailing space', () => {
    expect(normalizeOutput('\n\na \r\nb\r\n\r\n')).toBe('a\nb');
  });
});

describe('headingAnchors', () => {
  it('makes the anchors GitHub makes, and skips code blocks', () => {
    const markdown = [
      '# Query grammar',
      '## C1: insert one row from a form',
      '## One resource: /conf/definition, /conf/metadata',
      '## `_limit` and X-HTTP-Method-Override',
      '## Examples',
      '## Examples',
      `${fence}sh`,
      '# not a heading',
      fence,
    ].join('\n');
    expect([...headingAnchors(markdown)]).toEqual([
      'query-grammar',
      'c1-insert-one-row-from-a-form',
      'one-resource-confdefinition-confmetadata',
      '_limit-and-x-http-method-override',
      'examples',
      'examples-1',
    ]);
  });
});

describe('linksIn', () => {
  it('finds inline links with their lines, outside code', () => {
    const markdown = [
      'See [Writes](writes.md#guards) and [below](#order).',
      '`[not](a-link.md)` and',
      `${fence}`,
      '[not](either.md)',
      fence,
      '[Docs](docs/operations.md)',
    ].join('\n');
    expect(linksIn(markdown)).toEqual([
      { line: 1, target: 'writes.md#guards' },
      { line: 1, target: '#order' },
      { line: 6, target: 'docs/operations.md' },
    ]);
  });
});

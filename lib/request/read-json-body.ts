/**
 * A JSON request body → its document. Numbers keep their exact source digits (as lossless-json's LosslessNumber),
 * so `12345678901234567890` and `20.10` reach the converter unrounded; a key given twice in one object is refused
 * (which of the two was meant?). @streamparser/json reads the text token by token, so `readJsonBodyInSlices` can
 * let other requests run between slices of a big body. Errors name line, column and position (in characters).
 * Which keys and rows a resource takes is the planner's business. Pure: no IO, environment or clock.
 */
import { Tokenizer, TokenizerError, TokenParser, TokenParserError, TokenType } from '@streamparser/json';
import { LosslessNumber } from 'lossless-json';
import { BadRequestError } from '../errors';
import { lineAndColumn } from '../text';

/** Characters read between two turns of the event loop: under a millisecond of work. */
export const jsonSliceLength = 16 * 1024;

/** Far more than any resource's rows nest (the planner takes three levels); the stack stays small. */
const maxDepth = 64;

export function readJsonBody(text: string): unknown {
  const reader = startReading(text);
  reader.readTo(text.length);
  return reader.finish();
}

/** The same document or error as readJsonBody, with a turn of the event loop after each slice of the text. */
export async function readJsonBodyInSlices(text: string, sliceLength = jsonSliceLength): Promise<unknown> {
  const reader = startReading(text);
  for (let end = sliceLength; end < text.length; end += sliceLength) {
    reader.readTo(end);
    await new Promise((resolve) => setImmediate(resolve));
  }
  reader.readTo(text.length);
  return reader.finish();
}

/** Numbers as their source text. The library types the result as a number; it only stores what it gets. */
class LosslessTokenizer extends Tokenizer {
  protected override parseNumber(text: string): number {
    return new LosslessNumber(text) as unknown as number;
  }
}

interface Reader {
  /** Reads the text up to `end` (exclusive). */
  readTo(end: number): void;
  /** The document, once the whole text is read. */
  finish(): unknown;
}

/**
 * The tokenizer feeds the token parser, which builds the document and refuses tokens out of place. Beside it we
 * keep, per open object, the keys seen (to refuse one given twice) and the depth, and where the current token
 * starts (in UTF-8 bytes, as the tokenizer counts), so an error can say where it is.
 */
// one closure: the tokenizer's and the parser's callbacks share the reader's state
function startReading(text: string): Reader {
  if (text.trim() === '') throw new BadRequestError('bad_body', 'The JSON body is empty');
  const tokenizer = new LosslessTokenizer();
  const parser = new TokenParser({ paths: ['$'] });
  let document: { value: unknown } | undefined;
  parser.onValue = ({ value }) => {
    document = { value };
  };
  const keys = objectKeys();
  let byteOffset = 0;
  tokenizer.onToken = ({ token, value, offset }) => {
    byteOffset = offset;
    if (document !== undefined) throw new TokenParserError('after the end of the document');
    keys.see(token, value);
    parser.write({ token, value } as Parameters<TokenParser['write']>[0]);
  };
  /** What the text may hold next, where the tokenizer finds a character out of place between tokens. */
  const expectedHere = () => (document !== undefined ? 'the end of the body' : keys.expected());
  let read = 0;
  return {
    readTo(end) {
      whenMalformed(
        text,
        () => tokenizer.write(text.slice(read, end)),
        () => byteOffset,
        expectedHere,
      );
      read = end;
    },
    finish() {
      whenMalformed(
        text,
        () => tokenizer.end(),
        () => Buffer.byteLength(text),
        expectedHere,
      );
      if (document === undefined) {
        throw malformed(text, text.length, 'the body ends before the JSON document does');
      }
      return document.value;
    },
  };
}

class DuplicateKey extends Error {}

function seeKey(keys: Set<string> | null | undefined, key: string): void {
  if (!keys) return;
  if (keys.has(key)) throw new DuplicateKey(key);
  keys.add(key);
}

/** What may come next between tokens, as an error words it. */
const expecting = {
  key: 'a quoted key',
  colon: "':' after the key",
  value: 'a value',
  separator: "',' or the end of the object or array",
} as const;
type Expecting = keyof typeof expecting;

function nextAfter(token: TokenType, previous: Expecting, inObject: boolean): Expecting {
  switch (token) {
    case TokenType.LEFT_BRACE:
      return 'key';
    case TokenType.LEFT_BRACKET:
    case TokenType.COLON:
      return 'value';
    case TokenType.COMMA:
      return inObject ? 'key' : 'value';
    case TokenType.STRING:
      return previous === 'key' ? 'colon' : 'separator';
    default:
      return 'separator';
  }
}

/**
 * The keys of each open object, to refuse one given twice; the depth; and what may come next. It follows the tokens
 * as they come; the token parser refuses any out of place, so it need not check their order itself.
 */
function objectKeys(): { see(token: TokenType, value: unknown): void; expected(): string } {
  /** Per open object its keys so far, per open array null. */
  const open: (Set<string> | null)[] = [];
  let next: Expecting = 'value';
  return {
    see(token, value) {
      if (token === TokenType.STRING && next === 'key') seeKey(open[open.length - 1], value as string);
      else if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) {
        open.push(token === TokenType.LEFT_BRACE ? new Set() : null);
        if (open.length > maxDepth) throw new RangeError('nested too deeply');
      } else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) open.pop();
      next = nextAfter(token, next, open[open.length - 1] instanceof Set);
    },
    expected: () => expecting[next],
  };
}

/** Runs a step of the reading; what the library or the checks above refuse becomes a 400 saying where and why. */
function whenMalformed(text: string, step: () => void, byteOffset: () => number, expectedHere: () => string): void {
  try {
    step();
  } catch (error) {
    if (error instanceof RangeError) {
      throw new BadRequestError('bad_body', `The JSON body is nested too deeply (more than ${maxDepth} levels)`, error);
    }
    if (error instanceof DuplicateKey) {
      const reason = `the key ${quoted(error.message)} is given twice in one object`;
      throw malformed(text, characterIndex(text, byteOffset()), reason, error);
    }
    if (error instanceof TokenizerError) {
      const at = /absolute position "(\d+)"/.exec(error.message);
      if (at === null) {
        throw malformed(text, characterIndex(text, byteOffset()), 'the body ends in the middle of a value', error);
      }
      const position = characterIndex(text, Number(at[1]));
      const expected = tokenizerExpectation(error.message, expectedHere());
      throw malformed(text, position, unexpected(text, position, expected), error);
    }
    if (error instanceof TokenParserError) {
      const position = characterIndex(text, byteOffset());
      throw malformed(text, position, unexpected(text, position, parserExpectation(error.message)), error);
    }
    throw error;
  }
}

/** `position` in characters. */
function malformed(text: string, position: number, reason: string, cause?: unknown): BadRequestError {
  return new BadRequestError(
    'bad_body',
    `The JSON body is malformed at ${lineAndColumn(text, position)} (position ${position}): ${reason}`,
    cause,
  );
}

/** The tokenizer counts UTF-8 bytes; a message counts characters. */
function characterIndex(text: string, byteOffset: number): number {
  return Buffer.from(text).subarray(0, byteOffset).toString('utf8').length;
}

/** What stands at `position` (in characters), and what was expected there. */
function unexpected(text: string, position: number, expected: string): string {
  const found = text.codePointAt(position);
  return `unexpected ${found === undefined ? 'end of the body' : character(found)}${expected}`;
}

function character(code: number): string {
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return code < 0x20 || code === 0x7f ? `control character ${hex}` : `${quoted(String.fromCodePoint(code))}`;
}

const quoted = (text: string) => `'${text}'`;

/** The token parser's state, as its message names it → what it expected there. */
const parserStates: Readonly<Record<string, string>> = {
  VALUE: expecting.value,
  KEY: expecting.key,
  COLON: expecting.colon,
  COMMA: expecting.separator,
  SEPARATOR: 'the end of the body',
  ENDED: 'the end of the body',
};

function parserExpectation(message: string): string {
  if (message === 'after the end of the document') return '; expected the end of the body';
  const state = /in state (\w+)$/.exec(message)?.[1];
  const expected = state === undefined ? undefined : parserStates[state];
  return expected === undefined ? '' : `; expected ${expected}`;
}

/** Where in a token the tokenizer was, by the name of its state in the message → what was expected there. */
function tokenizerExpectation(message: string, expected: string): string {
  const state = /in state (\w+)$/.exec(message)?.[1] ?? '';
  if (state === 'STRING_AFTER_BACKSLASH')
    return ' after a backslash; the escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX';
  if (state.startsWith('STRING_UNICODE')) return ' in a \\uXXXX escape; expected a hexadecimal digit';
  if (state.startsWith('STRING')) return ' in a string; write a control character as \\uXXXX';
  if (state.startsWith('NUMBER')) return ' in a number';
  if (/^(TRUE|FALSE|NULL)/.test(state)) return ' in true, false or null';
  return `; expected ${expected}`;
}

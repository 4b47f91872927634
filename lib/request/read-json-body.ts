/**
 * A JSON request body → its document. Numbers keep their exact source digits (lossless-json), so
 * `12345678901234567890` and `20.10` reach the converter unrounded. Which keys and rows a resource takes is the
 * planner's business. Pure.
 */
import { parse } from 'lossless-json';
import { BadRequestError } from '../errors';

/**
 * Numbers arrive as LosslessNumber (their source text); a syntax error says where: line, column and position.
 * The parser recurses, so absurd nesting overflows the stack: that is the client's error too.
 */
export function readJsonBody(text: string): unknown {
  if (text.trim() === '') throw new BadRequestError('bad_body', 'The JSON body is empty');
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof RangeError) throw bad('The JSON body is nested too deeply', error);
    if (!(error instanceof SyntaxError)) throw error;
    const match = / at position (\d+)$/.exec(error.message);
    if (match === null) throw bad(`The JSON body is malformed: ${error.message}`, error);
    const position = Number(match[1]);
    const lines = text.slice(0, position).split('\n');
    const column = (lines[lines.length - 1] ?? '').length + 1;
    const reason = error.message.slice(0, match.index);
    throw bad(
      `The JSON body is malformed at line ${lines.length}, column ${column} (position ${position}): ${reason}`,
      error,
    );
  }
}

function bad(message: string, cause: unknown): BadRequestError {
  return new BadRequestError('bad_body', message, cause);
}

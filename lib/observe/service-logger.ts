/**
 * The service's Powertools Logger, writing the same lines for less: Powertools finds a level's name by scanning
 * its table of levels (Object.entries) twice on every line, about a fifth of what a request's line costs
 * (`npm run bench:costs`); this logger reads it from a table made once, with the same names. Given an output (the
 * server mode's lines a turn at a time, log-output.ts), it writes there instead of Powertools' console. Nothing else
 * of Powertools changes. Its version is pinned in package.json: the method and the field replaced are private to
 * Powertools, and test/observe checks the lines it writes.
 */
import { Logger, LogLevelThreshold } from '@aws-lambda-powertools/logger';
import type { LineOutput } from './log-output';

type LoggerOptions = NonNullable<ConstructorParameters<typeof Logger>[0]>;

/** Each level's name by its number: the first name with that number, as Powertools' own scan finds it. */
const levelNames = new Map<number, string>();
for (const [name, level] of Object.entries(LogLevelThreshold)) if (!levelNames.has(level)) levelNames.set(level, name);

export class ServiceLogger extends Logger {
  constructor(options: LoggerOptions, output?: LineOutput) {
    super(options);
    Object.defineProperty(this, 'getLogLevelNameFromNumber', { value: (level: number) => levelNames.get(level) });
    if (output) Object.defineProperty(this, 'console', { value: output, writable: true });
  }
}

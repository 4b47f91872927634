/**
 * Loaded before every test file (jest setupFilesAfterEnv). `describe.each(targets())` declares one block per
 * database whose URL is set; this notes the servers such a call leaves out, for the summary at the end of the
 * run. Only the describing counts: a file that takes just the embedded target from targets() leaves nothing out.
 */
import { leftOutBy, noteLeftOut } from './left-out';

describe.each = new Proxy(describe.each, {
  apply(each, self, args: Parameters<typeof describe.each>) {
    noteLeftOut(leftOutBy(args[0]));
    return Reflect.apply(each, self, args);
  },
});

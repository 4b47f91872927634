/** The documentation's examples (test/support/doc-example-pages.ts): the README and the pages of sign-in and writes. */
import { describeDocPages } from '../support/doc-example-pages';

describeDocPages('another terminal');

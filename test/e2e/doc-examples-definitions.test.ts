/** The documentation's examples (test/support/doc-example-pages.ts): definitions and deployment. */
import { describeDocPages } from '../support/doc-example-pages';

describeDocPages('definitions');

/** The documentation's examples (test/support/doc-example-pages.ts): definitions, deployment and configuration. */
import { describeDocPages } from '../support/doc-example-pages';

describeDocPages('definitions');

/**
 * The documentation's examples run as a user types them and print what the pages show
 * (test/support/doc-example-pages.ts): here the pages that no other share names; every block that is not run
 * says why.
 */
import { blocksNotRun, describeDocPages } from '../support/doc-example-pages';

it('says why each example block it does not run is not run', () => {
  for (const block of blocksNotRun()) expect(block.notRun).toMatch(/\w{3,}/);
});

describeDocPages('the rest');

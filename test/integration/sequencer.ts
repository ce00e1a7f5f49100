/**
 * The order of the integration files: exactly the order of NFV_INTEGRATION_ORDER (comma-separated
 * paths relative to the repository, as test/run-all lists a phase's files), else by path. Vitest's
 * own order depends on its cache (failed first, then the longest), so a cold and a warm run
 * differed; every file must pass in any order, and run-all can reverse it (NFV_TEST_ORDER=reverse)
 * to show that.
 */
import * as path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export default class ListedOrder extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rel = (f: TestSpecification) => path.relative(root, f.moduleId);
    const listed = (process.env.NFV_INTEGRATION_ORDER ?? "").split(",").filter(Boolean);
    const rank = (f: TestSpecification) => {
      const i = listed.indexOf(rel(f));
      return i < 0 ? listed.length : i;
    };
    return Promise.resolve([...files].sort((a, b) => rank(a) - rank(b) || rel(a).localeCompare(rel(b))));
  }
}

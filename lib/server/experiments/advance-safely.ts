import { log } from "../../log";
import { advanceExperiment } from "./advance-experiment";

/**
 * For the paths that end runs (finish, cancel, LOST): their own outcome stands even when moving
 * the experiment on fails; the next run that ends, or the periodic sweep, tries again.
 */
export async function advanceExperimentSafely(experimentId: string): Promise<void> {
  try {
    await advanceExperiment({ experimentId });
  } catch (err) {
    log().error(`experiment ${experimentId}: could not move on: ${err instanceof Error ? err.message : String(err)}`, { experimentId });
  }
}

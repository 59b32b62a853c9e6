import { db } from "../../db";

/** The runs launched together as repeats of one configuration, in the order they run. */
export async function listRepeats({ repeatGroup }: { repeatGroup: string }) {
  return db().probeRun.findMany({
    where: { repeatGroup },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, status: true },
  });
}

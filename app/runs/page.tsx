import type { Metadata } from "next";
import { PlannedFeature } from "@/components/coming-soon";
import { requirePageUser } from "@/lib/auth/page-guard";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  await requirePageUser("/runs");
  return (
    <PlannedFeature title="Runs">
      Every iozone, dd, sar and fio run — launched from here, imported from old output, or taken from a guide&apos;s
      reference data — will be listed here with filters by host, probe, status, file system and medium.
    </PlannedFeature>
  );
}

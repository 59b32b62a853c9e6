import type { Metadata } from "next";
import { PlannedFeature } from "@/components/coming-soon";
import { requirePageUser } from "@/lib/auth/page-guard";

export const metadata: Metadata = { title: "Import" };

export default async function ImportPage() {
  await requirePageUser("/import");
  return (
    <PlannedFeature title="Import">
      Paste or upload existing iozone, dd, sar or fio output here to keep it as a run and compare it with new ones.
    </PlannedFeature>
  );
}

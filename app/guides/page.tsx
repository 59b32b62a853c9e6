import type { Metadata } from "next";
import { PlannedFeature } from "@/components/coming-soon";

export const metadata: Metadata = { title: "Guides" };

export default function GuidesPage() {
  return (
    <PlannedFeature title="Guides">
      Structured tuning guides will be listed here: ext2/ext3/ext4 under IOzone, disk vs flash vs memory, Linux memory
      management for databases, file-system metadata speed, XFS preallocation, and the database and multicore articles.
    </PlannedFeature>
  );
}

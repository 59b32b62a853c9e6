import type { Metadata } from "next";
import { PlannedFeature } from "@/components/coming-soon";

export const metadata: Metadata = { title: "Tunables" };

export default function TunablesPage() {
  return (
    <PlannedFeature title="Tunables">
      Every sysctl, mount option and command the guides discuss will be indexed here with its recommended value, the
      guide that explains it, and the value each registered host currently has.
    </PlannedFeature>
  );
}

import type { Metadata } from "next";
import { PlannedFeature } from "@/components/coming-soon";
import { requirePageUser } from "@/lib/auth/page-guard";

export const metadata: Metadata = { title: "Hosts" };

export default async function HostsPage() {
  await requirePageUser("/hosts");
  return (
    <PlannedFeature title="Hosts">
      Registered machines will be listed here with their agent status, kernel, devices, file systems and vm sysctls.
      Operators will add a host and get the one-time command that starts the Probebook agent on it.
    </PlannedFeature>
  );
}

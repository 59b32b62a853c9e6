import type { Metadata } from "next";
import { PlannedFeature } from "@/components/coming-soon";

export const metadata: Metadata = { title: "Compare" };

export default function ComparePage() {
  return (
    <PlannedFeature title="Compare">
      Selected runs will be drawn side by side here — throughput against record size, dd bars, sar time series, fio
      bandwidth and latency — with what differs between the hosts and a share link anyone can open.
    </PlannedFeature>
  );
}

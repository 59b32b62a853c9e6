import type { Metadata } from "next";
import { RetentionForm } from "@/components/admin/retention-form";
import { requirePageUser } from "@/lib/auth/page-guard";
import { getRetention } from "@/lib/server/settings/get-retention";

export const metadata: Metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  await requirePageUser("/admin/settings", "ADMIN");
  const { rawLogDays } = await getRetention();
  return (
    <>
      <h1>Settings</h1>
      <h2>Retention of raw output</h2>
      <p data-testid="retention-now">
        {rawLogDays === null
          ? "Now: every run's raw output (what the tool printed) is kept forever."
          : `Now: a run's raw output (what the tool printed) is deleted ${rawLogDays} days after the run ended.`}
      </p>
      <p className="muted">
        What is always kept: each run&apos;s result, its telemetry, its checks and flags, the series and their alerts. What goes: the raw log
        (the terminal view, the Raw log download), so a run can no longer be re-parsed when a parser improves. The run page then says on which
        day its output was dropped. Pruning runs once a day on each instance; deleted output cannot be brought back.
      </p>
      <RetentionForm rawLogDays={rawLogDays} />
    </>
  );
}

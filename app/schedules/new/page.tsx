import type { Metadata } from "next";
import { ScheduleForm } from "@/components/schedules/schedule-form";
import { requirePageUser } from "@/lib/auth/page-guard";
import { scheduleFormChoices } from "@/lib/server/schedules/schedule-form-choices";
import { createScheduleAction } from "../actions";

export const metadata: Metadata = { title: "New schedule" };
export const dynamic = "force-dynamic";

export default async function NewSchedulePage() {
  await requirePageUser("/schedules/new", "OPERATOR");
  const { hosts, presets } = await scheduleFormChoices();
  return (
    <>
      <h1>New schedule</h1>
      <p className="lead">
        Run a preset on one or more hosts at an interval or by cron. Each host must allow the target now; at each due time an
        offline host is recorded as missed, a busy one skipped, and nothing runs in the quiet hours.
      </p>
      <ScheduleForm
        action={createScheduleAction}
        hosts={hosts}
        presets={presets}
        submitLabel="Create schedule"
        initial={{ name: "", hostIds: [], probePreset: "dd:write-direct", target: "", cron: null, intervalMinutes: 60, timezone: "UTC", jitterSeconds: 0, skipIfBusy: true, quietStart: null, quietEnd: null }}
      />
    </>
  );
}

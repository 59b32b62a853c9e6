// One "app instance" for the two-instance test (fire-due-schedules.instances.test.ts): calls
// fireDueSchedules in a tight loop on DATABASE_URL for the milliseconds given as its argument,
// then prints its totals as JSON.
import { pgPool } from "../../pg-pool";
import { fireDueSchedules } from "./fire-due-schedules";

async function main() {
  const until = Date.now() + Number(process.argv[2] ?? 5000);
  const total = { ticks: 0, schedules: 0, firings: 0, queued: 0, refused: 0 };
  while (Date.now() < until) {
    const r = await fireDueSchedules();
    total.ticks++;
    total.schedules += r.schedules;
    total.firings += r.firings;
    total.queued += r.queued;
    total.refused += r.refused;
  }
  process.stdout.write(`${JSON.stringify(total)}\n`);
  await pgPool().end();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

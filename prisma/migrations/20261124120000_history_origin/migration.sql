-- Host history: one finished day of a host's sysstat files becomes a sar run with origin HISTORY.
-- (No semicolons in these comments: the migration runner splits statements on them.)
-- AlterEnum
ALTER TYPE "RunOrigin" ADD VALUE 'HISTORY';

-- AlterTable: the sysstat file's own header date, NULL for every other run.
ALTER TABLE "probe_runs" ADD COLUMN     "history_day" DATE;

-- CreateIndex: one run per host and day. NULLs never collide, so other runs are unaffected.
-- A plain (not partial) index keeps schema.prisma and the database saying the same thing, and
-- a partial one could not name the new enum value in the transaction that adds it.
CREATE UNIQUE INDEX "probe_runs_host_id_history_day_key" ON "probe_runs"("host_id", "history_day");

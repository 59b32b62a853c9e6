-- Runs checked against their own telemetry (probes/checks): the flags found and when.
-- AlterTable
ALTER TABLE "probe_runs" ADD COLUMN     "checked_at" TIMESTAMP(3),
ADD COLUMN     "flags" JSONB NOT NULL DEFAULT '[]';


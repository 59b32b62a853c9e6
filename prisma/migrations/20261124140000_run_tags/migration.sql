-- Tags on runs, filtered with @> (GIN index).
ALTER TABLE "probe_runs" ADD COLUMN "tags" TEXT[] DEFAULT ARRAY[]::TEXT[];
CREATE INDEX "probe_runs_tags_idx" ON "probe_runs" USING GIN ("tags");

-- A deleted host leaves its runs readable (host_label keeps the name) instead of deleting them.
ALTER TABLE "probe_runs" DROP CONSTRAINT "probe_runs_host_id_fkey";
ALTER TABLE "probe_runs" ADD CONSTRAINT "probe_runs_host_id_fkey" FOREIGN KEY ("host_id") REFERENCES "hosts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

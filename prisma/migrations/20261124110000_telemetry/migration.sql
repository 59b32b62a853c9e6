-- CreateTable
CREATE TABLE "run_telemetry" (
    "run_id" UUID NOT NULL,
    "t" DOUBLE PRECISION NOT NULL,
    "sample" JSONB NOT NULL,

    CONSTRAINT "run_telemetry_pkey" PRIMARY KEY ("run_id","t")
);

-- AddForeignKey
ALTER TABLE "run_telemetry" ADD CONSTRAINT "run_telemetry_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "probe_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;


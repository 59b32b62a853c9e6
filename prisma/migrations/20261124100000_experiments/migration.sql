-- CreateEnum
CREATE TYPE "ExperimentStatus" AS ENUM ('RUNNING', 'FINISHED', 'FAILED', 'CANCELLED');

-- AlterTable
ALTER TABLE "probe_runs" ADD COLUMN     "arm_index" INTEGER,
ADD COLUMN     "experiment_id" UUID,
ADD COLUMN     "round" INTEGER,
ADD COLUMN     "setup" JSONB;

-- CreateTable
CREATE TABLE "experiments" (
    "id" UUID NOT NULL,
    "host_id" UUID,
    "created_by_id" UUID,
    "title" TEXT NOT NULL,
    "probe" TEXT NOT NULL,
    "preset" TEXT,
    "params" JSONB NOT NULL,
    "arms" JSONB NOT NULL,
    "lab_image_bytes" BIGINT,
    "policy" JSONB NOT NULL,
    "order_seed" INTEGER NOT NULL,
    "status" "ExperimentStatus" NOT NULL DEFAULT 'RUNNING',
    "decision" TEXT,
    "decision_message" TEXT,
    "verdict" JSONB,
    "reverted" BOOLEAN,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "experiments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "experiments_host_id_idx" ON "experiments"("host_id");

-- CreateIndex
CREATE INDEX "experiments_created_at_idx" ON "experiments"("created_at");

-- CreateIndex
CREATE INDEX "experiments_status_idx" ON "experiments"("status");

-- CreateIndex
CREATE INDEX "probe_runs_experiment_id_round_idx" ON "probe_runs"("experiment_id", "round");

-- AddForeignKey
ALTER TABLE "probe_runs" ADD CONSTRAINT "probe_runs_experiment_id_fkey" FOREIGN KEY ("experiment_id") REFERENCES "experiments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_host_id_fkey" FOREIGN KEY ("host_id") REFERENCES "hosts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;


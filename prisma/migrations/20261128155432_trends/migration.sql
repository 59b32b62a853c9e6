-- CreateEnum
CREATE TYPE "ScheduleKind" AS ENUM ('RUN', 'EXPERIMENT');

-- CreateEnum
CREATE TYPE "FiringOutcome" AS ENUM ('QUEUED', 'MISSED_OFFLINE', 'SKIPPED_BUSY', 'SKIPPED_QUIET', 'REFUSED');

-- CreateEnum
CREATE TYPE "AlertKind" AS ENUM ('REGRESSION', 'IMPROVEMENT');

-- CreateEnum
CREATE TYPE "WebhookFormat" AS ENUM ('JSON', 'SLACK');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('PENDING', 'DELIVERED', 'FAILED');

-- AlterTable
ALTER TABLE "probe_runs" ADD COLUMN     "log_pruned_at" TIMESTAMP(3),
ADD COLUMN     "preset" TEXT,
ADD COLUMN     "schedule_id" UUID,
ADD COLUMN     "series_id" UUID;

-- CreateTable
CREATE TABLE "schedules" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "ScheduleKind" NOT NULL DEFAULT 'RUN',
    "host_ids" UUID[],
    "probe" TEXT NOT NULL,
    "preset" TEXT,
    "params" JSONB NOT NULL,
    "cron" TEXT,
    "interval_minutes" INTEGER,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "jitter_seconds" INTEGER NOT NULL DEFAULT 0,
    "skip_if_busy" BOOLEAN NOT NULL DEFAULT true,
    "quiet_start" TEXT,
    "quiet_end" TEXT,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "next_fire_at" TIMESTAMP(3),
    "last_fired_at" TIMESTAMP(3),
    "created_by_id" UUID,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "schedules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "schedule_firings" (
    "id" UUID NOT NULL,
    "schedule_id" UUID NOT NULL,
    "host_id" UUID,
    "due_at" TIMESTAMP(3) NOT NULL,
    "fired_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "outcome" "FiringOutcome" NOT NULL,
    "run_id" UUID,
    "experiment_id" UUID,
    "message" TEXT,

    CONSTRAINT "schedule_firings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "series" (
    "id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "host_id" UUID,
    "probe" TEXT NOT NULL,
    "preset" TEXT,
    "params" JSONB NOT NULL,
    "target" TEXT,
    "metric_key" TEXT,
    "window_runs" INTEGER NOT NULL DEFAULT 5,
    "threshold_pct" DOUBLE PRECISION NOT NULL DEFAULT 5,
    "last_run_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "series_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alerts" (
    "id" UUID NOT NULL,
    "series_id" UUID NOT NULL,
    "kind" "AlertKind" NOT NULL,
    "metric_key" TEXT NOT NULL,
    "ratio" DOUBLE PRECISION NOT NULL,
    "ci_low" DOUBLE PRECISION NOT NULL,
    "ci_high" DOUBLE PRECISION NOT NULL,
    "confidence" DOUBLE PRECISION NOT NULL,
    "baseline_run_ids" UUID[],
    "recent_run_ids" UUID[],
    "changes" JSONB NOT NULL DEFAULT '[]',
    "message" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acknowledged_at" TIMESTAMP(3),
    "acknowledged_by_id" UUID,

    CONSTRAINT "alerts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_targets" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "format" "WebhookFormat" NOT NULL DEFAULT 'JSON',
    "secret" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "include_improvements" BOOLEAN NOT NULL DEFAULT false,
    "created_by_id" UUID,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_targets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "target_id" UUID NOT NULL,
    "alert_id" UUID,
    "test" BOOLEAN NOT NULL DEFAULT false,
    "payload" JSONB NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMP(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_settings" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "app_settings_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "schedules_paused_next_fire_at_idx" ON "schedules"("paused", "next_fire_at");

-- CreateIndex
CREATE INDEX "schedule_firings_schedule_id_due_at_idx" ON "schedule_firings"("schedule_id", "due_at");

-- CreateIndex
CREATE UNIQUE INDEX "schedule_firings_schedule_id_host_id_due_at_key" ON "schedule_firings"("schedule_id", "host_id", "due_at");

-- CreateIndex
CREATE UNIQUE INDEX "series_key_key" ON "series"("key");

-- CreateIndex
CREATE INDEX "series_host_id_idx" ON "series"("host_id");

-- CreateIndex
CREATE INDEX "alerts_series_id_created_at_idx" ON "alerts"("series_id", "created_at");

-- CreateIndex
CREATE INDEX "alerts_acknowledged_at_idx" ON "alerts"("acknowledged_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_target_id_created_at_idx" ON "webhook_deliveries"("target_id", "created_at");

-- CreateIndex
CREATE INDEX "probe_runs_series_id_finished_at_idx" ON "probe_runs"("series_id", "finished_at");

-- CreateIndex
CREATE INDEX "probe_runs_schedule_id_idx" ON "probe_runs"("schedule_id");

-- AddForeignKey
ALTER TABLE "probe_runs" ADD CONSTRAINT "probe_runs_series_id_fkey" FOREIGN KEY ("series_id") REFERENCES "series"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "schedule_firings" ADD CONSTRAINT "schedule_firings_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "schedules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "series" ADD CONSTRAINT "series_host_id_fkey" FOREIGN KEY ("host_id") REFERENCES "hosts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_series_id_fkey" FOREIGN KEY ("series_id") REFERENCES "series"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "webhook_targets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


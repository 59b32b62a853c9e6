-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('VIEWER', 'OPERATOR', 'ADMIN');

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'LOST');

-- CreateEnum
CREATE TYPE "RunOrigin" AS ENUM ('AGENT', 'IMPORTED', 'REFERENCE');

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" "Role" NOT NULL DEFAULT 'VIEWER',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "hosts" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_by_id" UUID,
    "registration_token_hash" TEXT,
    "registration_expires_at" TIMESTAMP(3),
    "agent_credential_hash" TEXT,
    "agent_registered_at" TIMESTAMP(3),
    "last_seen_at" TIMESTAMP(3),
    "capabilities" JSONB,
    "profile" JSONB,
    "medium_overrides" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "hosts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "probe_runs" (
    "id" UUID NOT NULL,
    "host_id" UUID,
    "host_label" TEXT,
    "probe" TEXT NOT NULL,
    "params" JSONB NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'QUEUED',
    "origin" "RunOrigin" NOT NULL DEFAULT 'AGENT',
    "repeat_group" UUID,
    "notes" TEXT,
    "created_by_id" UUID,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "last_activity_at" TIMESTAMP(3),
    "cancel_requested_at" TIMESTAMP(3),
    "exit_code" INTEGER,
    "duration_ms" INTEGER,
    "error_message" TEXT,
    "profile" JSONB,
    "result" JSONB,
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "fs_type" TEXT,
    "medium" TEXT,

    CONSTRAINT "probe_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "run_log_chunks" (
    "id" BIGSERIAL NOT NULL,
    "run_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_log_chunks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comparisons" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "snapshot" JSONB NOT NULL,
    "created_by_id" UUID,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comparisons_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comparison_runs" (
    "comparison_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "comparison_runs_pkey" PRIMARY KEY ("comparison_id","run_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "users_role_idx" ON "users"("role");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "api_tokens_user_id_idx" ON "api_tokens"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "hosts_registration_token_hash_key" ON "hosts"("registration_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "hosts_agent_credential_hash_key" ON "hosts"("agent_credential_hash");

-- CreateIndex
CREATE INDEX "hosts_created_by_id_idx" ON "hosts"("created_by_id");

-- CreateIndex
CREATE INDEX "hosts_name_idx" ON "hosts"("name");

-- CreateIndex
CREATE INDEX "hosts_last_seen_at_idx" ON "hosts"("last_seen_at");

-- CreateIndex
CREATE INDEX "probe_runs_host_id_status_created_at_idx" ON "probe_runs"("host_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "probe_runs_created_by_id_idx" ON "probe_runs"("created_by_id");

-- CreateIndex
CREATE INDEX "probe_runs_probe_idx" ON "probe_runs"("probe");

-- CreateIndex
CREATE INDEX "probe_runs_status_idx" ON "probe_runs"("status");

-- CreateIndex
CREATE INDEX "probe_runs_origin_idx" ON "probe_runs"("origin");

-- CreateIndex
CREATE INDEX "probe_runs_fs_type_idx" ON "probe_runs"("fs_type");

-- CreateIndex
CREATE INDEX "probe_runs_medium_idx" ON "probe_runs"("medium");

-- CreateIndex
CREATE INDEX "probe_runs_created_at_idx" ON "probe_runs"("created_at");

-- CreateIndex
CREATE INDEX "probe_runs_repeat_group_idx" ON "probe_runs"("repeat_group");

-- CreateIndex
CREATE UNIQUE INDEX "run_log_chunks_run_id_seq_key" ON "run_log_chunks"("run_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "comparisons_slug_key" ON "comparisons"("slug");

-- CreateIndex
CREATE INDEX "comparisons_created_by_id_idx" ON "comparisons"("created_by_id");

-- CreateIndex
CREATE INDEX "comparisons_created_at_idx" ON "comparisons"("created_at");

-- CreateIndex
CREATE INDEX "comparison_runs_run_id_idx" ON "comparison_runs"("run_id");

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hosts" ADD CONSTRAINT "hosts_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "probe_runs" ADD CONSTRAINT "probe_runs_host_id_fkey" FOREIGN KEY ("host_id") REFERENCES "hosts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "probe_runs" ADD CONSTRAINT "probe_runs_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "run_log_chunks" ADD CONSTRAINT "run_log_chunks_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "probe_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comparisons" ADD CONSTRAINT "comparisons_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comparison_runs" ADD CONSTRAINT "comparison_runs_comparison_id_fkey" FOREIGN KEY ("comparison_id") REFERENCES "comparisons"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comparison_runs" ADD CONSTRAINT "comparison_runs_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "probe_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;


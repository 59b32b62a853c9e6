-- When the agent last reported its tools, and when an operator last asked it to detect them
-- again (pending while later than tools_checked_at).
ALTER TABLE "hosts" ADD COLUMN "tools_checked_at" TIMESTAMP(3);
ALTER TABLE "hosts" ADD COLUMN "tools_recheck_requested_at" TIMESTAMP(3);

-- Hosts that reported capabilities before this column existed: last seen is the best we know.
UPDATE "hosts" SET "tools_checked_at" = "agent_registered_at" WHERE "capabilities" IS NOT NULL;

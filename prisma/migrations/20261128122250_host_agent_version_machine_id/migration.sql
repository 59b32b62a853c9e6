-- AlterTable
ALTER TABLE "hosts" ADD COLUMN     "agent_protocol_version" INTEGER,
ADD COLUMN     "agent_version" TEXT,
ADD COLUMN     "machine_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "hosts_machine_id_key" ON "hosts"("machine_id");


-- Hosts registered before: the version their agent put in its capabilities, and protocol 1
-- (every agent before the field spoke protocol 1).
UPDATE "hosts" SET "agent_version" = "capabilities"->>'agentVersion', "agent_protocol_version" = 1
WHERE jsonb_typeof("capabilities") = 'object' AND "capabilities" ? 'agentVersion';

-- DropForeignKey
ALTER TABLE "experiments" DROP CONSTRAINT "experiments_host_id_fkey";

-- AlterTable
ALTER TABLE "probe_runs" ADD COLUMN     "final_report_credential_hash" TEXT;

-- AlterTable
ALTER TABLE "experiments" ADD COLUMN     "host_label" TEXT;

-- AddForeignKey
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_host_id_fkey" FOREIGN KEY ("host_id") REFERENCES "hosts"("id") ON DELETE SET NULL ON UPDATE CASCADE;


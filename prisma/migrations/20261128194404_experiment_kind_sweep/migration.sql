-- AlterTable
ALTER TABLE "experiments" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'ab',
ADD COLUMN     "sweep" JSONB;


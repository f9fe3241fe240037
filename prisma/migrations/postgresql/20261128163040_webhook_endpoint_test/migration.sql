-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "test" BOOLEAN NOT NULL DEFAULT false;

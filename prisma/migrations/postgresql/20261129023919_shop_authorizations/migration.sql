-- CreateTable
CREATE TABLE "shop_authorizations" (
    "id" TEXT NOT NULL,
    "shop_type" "ShopType" NOT NULL,
    "state_hash" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secrets" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "api_base_url" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "message" TEXT,
    "shop_id" TEXT,
    "claimed_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "shop_authorizations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "shop_authorizations_state_hash_key" ON "shop_authorizations"("state_hash");

-- CreateIndex
CREATE INDEX "shop_authorizations_merchant_team_id_idx" ON "shop_authorizations"("merchant_team_id");

-- CreateIndex
CREATE INDEX "shop_authorizations_fulfiller_team_id_idx" ON "shop_authorizations"("fulfiller_team_id");

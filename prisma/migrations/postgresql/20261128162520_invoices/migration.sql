-- CreateTable
CREATE TABLE "invoices" (
    "id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "fulfillment_delegation_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'DRAFT',
    "number" TEXT,
    "sequence" INTEGER,
    "period_kind" TEXT NOT NULL,
    "period_start" TEXT NOT NULL,
    "period_end" TEXT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "subtotal" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "tax_label" TEXT NOT NULL DEFAULT 'Tax',
    "tax_rate" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "tax_amount" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "total" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "charge_count" INTEGER NOT NULL DEFAULT 0,
    "lines" JSONB NOT NULL,
    "source" TEXT NOT NULL,
    "open_key" TEXT,
    "generated_at" TIMESTAMP(3) NOT NULL,
    "finalized_at" TIMESTAMP(3),
    "due_at" TIMESTAMP(3),
    "sent_at" TIMESTAMP(3),
    "paid_at" TIMESTAMP(3),
    "payment_reference" TEXT,
    "voided_at" TIMESTAMP(3),
    "void_reason" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_terms" (
    "id" TEXT NOT NULL,
    "fulfillment_delegation_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "period" TEXT NOT NULL DEFAULT 'MONTHLY',
    "tax_rate" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "tax_label" TEXT NOT NULL DEFAULT 'Tax',
    "payment_terms_days" INTEGER NOT NULL DEFAULT 30,
    "bill_to" JSONB,
    "closed_through" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "invoice_terms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "billing_profiles" (
    "team_id" TEXT NOT NULL,
    "legal_name" TEXT,
    "address" JSONB,
    "tax_id" TEXT,
    "logo_file_id" TEXT,
    "number_prefix" TEXT NOT NULL DEFAULT 'INV-',
    "footer" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "billing_profiles_pkey" PRIMARY KEY ("team_id")
);

-- CreateTable
CREATE TABLE "invoice_counters" (
    "team_id" TEXT NOT NULL,
    "last_number" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "invoice_counters_pkey" PRIMARY KEY ("team_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "invoices_open_key_key" ON "invoices"("open_key");

-- CreateIndex
CREATE INDEX "invoices_fulfiller_team_id_created_at_id_idx" ON "invoices"("fulfiller_team_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "invoices_fulfiller_team_id_merchant_team_id_period_start_idx" ON "invoices"("fulfiller_team_id", "merchant_team_id", "period_start");

-- CreateIndex
CREATE INDEX "invoices_merchant_team_id_created_at_id_idx" ON "invoices"("merchant_team_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_fulfiller_team_id_sequence_key" ON "invoices"("fulfiller_team_id", "sequence");

-- CreateIndex
CREATE UNIQUE INDEX "invoice_terms_fulfillment_delegation_id_key" ON "invoice_terms"("fulfillment_delegation_id");

-- CreateIndex
CREATE INDEX "invoice_terms_fulfiller_team_id_idx" ON "invoice_terms"("fulfiller_team_id");

-- CreateIndex
CREATE INDEX "charges_invoice_id_idx" ON "charges"("invoice_id");

-- CreateIndex
CREATE INDEX "charges_merchant_team_id_created_at_id_idx" ON "charges"("merchant_team_id", "created_at", "id");

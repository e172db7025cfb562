ALTER TABLE "credit_ledger" DROP CONSTRAINT "credit_ledger_cause_check";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_cause_check" CHECK (cause in ('signup', 'purchase', 'period', 'reward', 'referral', 'signal', 'refund', 'lapse', 'opening', 'adjustment', 'reversal'));
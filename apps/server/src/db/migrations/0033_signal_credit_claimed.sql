-- A live signal's one-time credit claimed by a pack's refund is marked on the signal's row too
-- (held-credits.repository.ts): the hook's outcome statement, waiting for that row while the
-- refund (or its failure ending the claim) commits, reads the row as it stands after the commit,
-- but the ledger as of its own start. Claims open now (a 'reversal' row of a signal's claim slot
-- without its 'restore' row) are marked.
ALTER TABLE "signals" ADD COLUMN "credit_claimed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "signals" s SET "credit_claimed" = true
FROM "credit_ledger" k
WHERE k."cause" = 'reversal' AND k."reference" IS NOT NULL AND k."note" LIKE 'credit held by this signal taken back by %'
  AND s."id" = split_part(k."reference", ':', 1)
  AND NOT EXISTS (SELECT 1 FROM "credit_ledger" g WHERE g."cause" = 'restore' AND g."reference" = k."reference");

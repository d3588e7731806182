-- E-mail is sent after commit by a job of the `email` queue (lib/email/, pg-boss): each row is one
-- message and what became of it. `status` is `queued` (not sent yet, or failed and waiting for its
-- retry), `sent` (logged to stdout in outbox mode, accepted by the SMTP server in smtp mode) or
-- `failed` (every retry failed); `attempts` and `last_error` are those of its sending. `link` is
-- the one link the message exists for (a sign-in link), which outbox mode logs.
ALTER TABLE "outbox_emails"
    ADD COLUMN "link" TEXT,
    ADD COLUMN "status" TEXT NOT NULL DEFAULT 'queued',
    ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "last_error" TEXT,
    ADD COLUMN "sent_at" TIMESTAMPTZ(3),
    ADD CONSTRAINT "outbox_emails_status_check" CHECK ("status" IN ('queued', 'sent', 'failed'));

-- Rows from before: they were logged when written.
UPDATE "outbox_emails" SET "status" = 'sent', "sent_at" = "created_at";

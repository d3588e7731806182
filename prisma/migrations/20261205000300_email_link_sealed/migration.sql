-- In production an e-mail's link (a sign-in or confirmation link, a guest's order page) is a
-- bearer secret: the stored body carries a placeholder, and the link is kept encrypted here only
-- until the message is sent (or fails for good).
ALTER TABLE "outbox_emails" ADD COLUMN "link_sealed" TEXT;

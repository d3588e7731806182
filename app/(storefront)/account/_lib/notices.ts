/** What a successful post on /account says on the page it leads to (`?notice=`). */
export const ACCOUNT_NOTICES: Record<string, string> = {
  address_added: "Address saved.",
  address_saved: "Address updated.",
  address_default: "Default address changed: checkout ships there from now on.",
  address_deleted: "Address deleted.",
  card_saved: "The test card is saved.",
  card_kept: "The test card was saved already.",
  method_default: "Default payment method changed.",
  method_removed: "Payment method removed.",
  agent_settings_saved: "Agent settings saved.",
  agent_revoked: "Agent disconnected: its access ended at once.",
  password_saved: "Password saved. Every other browser signed in to your account was signed out.",
  password_removed:
    "Your e-mail address is confirmed. This account had a password chosen before the address was confirmed, perhaps by someone else: it no longer works, and everyone signed in to the account was signed out. Set a new password below if you want one.",
};

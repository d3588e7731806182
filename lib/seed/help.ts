/** Help centre articles (Markdown), shown at /help/{slug} and by the MCP help tools. */

export interface HelpArticleDef {
  slug: string;
  title: string;
  summary: string;
  body: string;
}

export const HELP_ARTICLES: HelpArticleDef[] = [
  {
    slug: "how-search-works",
    title: "How search works",
    summary: "What search matches, how results are ranked, and how to narrow them with filters.",
    body: `# How search works

Search covers every product that is **publicly listed** and has at least one offer you can buy
right now: an active listing from an active store that is in stock or accepts backorders.
Products you cannot buy are never shown in results, so every card leads somewhere useful.

## What your words match

We look for your words in, from most to least important:

1. the product **title**,
2. the **brand** name,
3. the **category** names (the product's category and all of its parents),
4. the **description** and the product's details such as colour, material or size.

Type the way you would say it; you do not need exact words or any special syntax.

- **Products with every word come first.** If no product has all of your words, you still see
  the products that have most of them, and the page says so: a rare word (a brand, a model
  name) counts for more than a common one (\`black\`, \`set\`). Words like \`for\`, \`with\`
  or \`the\` never need to match, and a word that appears nowhere (\`cheap\`, \`best\`) is
  left out rather than emptying the page.
- **Typos are corrected** in words of five letters or more: one wrong, missing, extra or
  swapped letter (two from nine letters). The page then says "Showing results for" the
  corrected words, with a link to search for exactly what you typed. A word that exists in the
  catalog is never "corrected".
- **The last word may be half typed**: \`wireless headp\` already finds headphones.
- **Case, accents and full-width characters do not matter**: \`CAFÉ\`, \`cafe\` and \`ｃａｆｅ\`
  are the same word. Words match by their stem, so \`skillet\` also finds *skillets*.
- **\`-word\` excludes a word** (\`headphones -wired\`). A hyphen inside a word (\`on-ear\`) or
  on its own between words (\`Headphones - Black\`) is just a separator.

Among the matches, a product whose title is exactly your words, begins with them or is
contained in them comes first. Then each of your words counts for where it appears: in the
title most, then the brand, then the category, then the description, and more when it appears
in several of these. Among products that match equally well, the most-reviewed come first.

When nothing matches at all, the page suggests similar words from the catalog and categories
to browse.

## Filters

- **Category** narrows results to a category and everything below it.
- **Brand** accepts several brands at once.
- **Condition** (\`new\`, \`like_new\`, \`very_good\`, \`good\`, \`acceptable\`, \`refurbished\`,
  \`used\`, \`for_parts\`) and **price** apply to individual offers: a product matches when one
  of its offers meets all of them, and the price shown on the card is the lowest matching offer.
- Price ranges use whole buckets: under $25, $25 to $50, $50 to $100, $100 to $200,
  $200 to $500 and $500 & up.

The counts next to each filter value tell you how many products you would see if you picked
it, taking all your *other* filters into account, so you can tick several values of the same
filter.

## Sorting

- **Relevance** (default): best text match first, then the most-reviewed products.
- **Price: low to high / high to low**: by the lowest matching offer.
- **Newest**: by the date the product was first published.

Results are paged; asking for a page past the last one simply returns an empty page.
`,
  },
  {
    slug: "buying-with-a-cart-link",
    title: "Buying with a cart link",
    summary: "How a cart link prepared by an assistant or another site fills your cart, and what to check before you pay.",
    body: `# Buying with a cart link

A **cart link** is a link that fills your own cart with specific offers. Shopping assistants,
AI agents and comparison sites create them through our public API so that *you* can review
and complete the purchase. Nothing is bought for you.

## What happens when you open one

1. The items in the link are added to your cart (if you are signed out, to a cart in your
   browser that joins your account cart when you sign in).
2. Prices and availability are checked again **at that moment**. If a price has changed or an
   item has sold out since the link was made, the cart page tells you.
3. You review the cart and check out as usual.

Opening the same link twice does not add the items twice.

## Good to know

- A cart link **expires 7 days** after it was created. An expired link shows a notice and adds
  nothing; ask whoever sent it for a new one.
- A link does not reserve stock and does not guarantee a price.
- A link holds at most 20 different offers and at most 99 of each.
- A cart link never places an order, takes a payment, or shares any of your details with the
  person or program that created it.

## For developers

Create a link with \`POST /api/public/v1/cart-links\` and a body such as
\`{"items": [{"listing_id": "<offer id>", "quantity": 1}]}\`. Offers that cannot be bought are
returned in \`rejected\` with the reason \`unavailable\` or \`insufficient_stock\`. So that stock
counts cannot be learned by asking, a line of more than one unit is compared with the offer's
stock only a few times a day per offer (whoever asks); after that it is accepted unchecked, and
the cart shows "not enough stock" when the link is opened if that is so. See
[Connecting agents and apps](/help/for-agents-public-api).
`,
  },
  {
    slug: "signing-in-and-your-account",
    title: "Signing in and your account",
    summary: "Create an account with a password or sign in with a link we e-mail you; confirming your address; your password; signing out, here or everywhere.",
    body: `# Signing in and your account

You can browse, search and fill a cart without an account. An account keeps your cart with you
on every device where you sign in.

## Create an account

Choose **Sign in** at the top of any page, then **Create an account**. Enter your name (optional),
your e-mail address and a password of 8 to 200 characters, and choose **Create account**. You are
signed in at once, and we e-mail you a link to **confirm your address**: open it in the same
browser within 15 minutes (later, any sign-in link confirms it too).

Until an address is confirmed, we cannot know that whoever chose the password owns it. So if
someone created an account with **your** address, open the confirmation link or ask for a sign-in
link: the first time you confirm the address in a browser that is not signed in to that account,
the password they chose stops working, everyone signed in to the account is signed out, and the
account is yours. Your account page then says so; set a password of your own there.

If the address already has an account, no second one is made and the existing account is not
changed: sign in instead, or ask for a sign-in link. We also e-mail that address to say someone
tried.

## Sign in

- **With your password:** on the sign-in page enter your e-mail and password and choose **Sign in**.
  If either is wrong you see "Wrong e-mail or password."; we do not say which.
- **With a link, no password needed:** enter your e-mail under **Email me a sign-in link**. We
  e-mail you a link that signs you in. It works **once**, within **15 minutes**; after that ask
  for a new one. If the address has no account yet, opening the link creates one, and in every
  case it confirms that the address is yours.

After signing in you return to the page you were on (or to your account page).

Too many sign-in attempts from one network in a short time are refused for a moment; wait a
few seconds and try again. After five wrong passwords for one account, from wherever they come,
that account's password sign-in waits a minute between attempts ("Too many wrong passwords for
this account lately"); the e-mailed sign-in link still works meanwhile.

## Your cart when you sign in

Anything you put in your cart while signed out joins your account's cart when you sign in: the
quantities of an item in both are added together (up to 99 of one item), and a cart holds up to
100 different items. While you are signed in, your cart is the same on every device.

## Your account page

**Your account** (at the top of every page once you are signed in) shows your name, e-mail
address and role: shopper, store owner or marketplace admin, and your saved shipping addresses
and payment method (see "Addresses and payment methods"). Store owners also find a link to
their seller dashboard there, and marketplace admins a link to the marketplace settings.

Under **Password**, change your password: enter the **Current password** and the **New password**
and choose **Change password**. An account made with a sign-in link has no password until you
choose **Set password**. Either way, every other browser signed in to your account is signed out;
this one stays signed in.

## Signing out

Choose **Sign out** on your account page. You are signed out on this browser; your account's
cart stays with your account for next time. A cart nobody has changed for 90 days may be emptied.

Your account page also says on how many browsers or devices you are signed in. **End all
sessions** signs you out on all of them at once, this one included: use it if you signed in on a
computer that is not yours, or lost a phone.

## Security

- Passwords are stored only as a slow, salted hash (scrypt); nobody can read yours back.
- You stay signed in for up to 30 days on a browser unless you sign out. Signing out ends the
  session on our side too: a copy of the sign-in cookie no longer works. The sign-in cookie
  cannot be read by scripts and is not sent with forms posted from other sites, and forms posted
  from other sites are refused.
`,
  },
  {
    slug: "checking-out",
    title: "Checking out",
    summary: "Place an order from your cart, as a guest or signed in: what the checkout page shows, how shipping is charged, paying, and your confirmation.",
    body: `# Checking out

Choose **Checkout** on your cart page. The checkout page re-reads every item in your cart at that
moment and shows:

- each item with the store that sells it, grouped by store;
- each store's **shipping** (see below), the **subtotal**, the shipping and the **total**;
- under each store, its free-shipping threshold if it has one, the **delivery estimate** (the
  store's handling days plus the carrier's transit days, in business days) and the **return
  window** (30 days after delivery); the cart page shows the same for each store;
- **what changed since you last saw your cart**: a price that moved, an item that sold out,
  that the store no longer has in the quantity you asked for, or that can no longer be bought
  at all. Change your cart first when something cannot be bought: the **Place order** button
  appears only when every item can be.

One order can hold items of several stores; each store ships its own items.

## As a guest

You do not need an account. Fill in **Email** (your confirmation goes there), **Full name**,
**Address line 1** (and **Address line 2** if you need it), **City**, **State**, **ZIP code**
and **Card number**, then choose **Place order**. We ship to addresses in the United States.

What you type (except the card number) is kept with your cart as you type, so reloading the
checkout page, or coming back to it later, fills it in again. Without JavaScript, choose **Save
details for later** to keep it. The card number is never kept: type it again. Placing the order
clears what was kept.

## Signed in

If your account has a default shipping address and a default payment method, they are already
chosen on the checkout page: check them and choose **Place order**. If it has none, type an
address or a card number as a guest would.

## How shipping is charged

Each store charges shipping **once per order**, however many of its items you buy:

1. every item has the store's **standard** shipping rate for your country (for a US address,
   the rate the product page's highlighted offer is compared with);
2. the store charges the **highest** of those rates among your items from it;
3. that charge is **waived** when your subtotal from that store reaches the free-shipping
   threshold of that rate, if it has one.

An item without a shipping rate ships free. The order's shipping is the sum over its stores.

## Paying

While the marketplace runs on its **test payment provider**, the checkout page says so and names
two card numbers: **4242 4242 4242 4242** is approved and **4000 0000 0000 0002** is declined (any
other valid card number ending in 0002 is declined too). No real money is charged.

Your card is charged only when the order is placed, and only once. Only the **last 4 digits** of
a card are kept; the number itself is never stored. If the card is declined, nothing is
charged, nothing is ordered, and the checkout page tells you so.

## When something changes at the last moment

Placing an order checks everything again and either places the whole order or nothing. If an
item sold out, its price moved, or your cart changed in another tab since the page was shown,
you return to the checkout page with a message and the page shows the cart as it is now; what
you typed is kept (except the card number, which you type again). Nothing was ordered or
charged. When many people buy the last unit at once, exactly one of them gets it.

Pressing **Place order** twice (a double click, or a reload) places **one** order.

## Your confirmation

After placing the order you see its confirmation page; its heading holds your **order number**
(like \`M-10042\`). We also e-mail you the order: the number, the items by store, the totals,
the shipping address and a link to the order. Signed-in buyers' link leads to the order's page
in their account; a guest's link leads back to the confirmation page, which only that link
opens, so keep the e-mail. Signed-in buyers follow their orders under **Account > Your orders**:
see [Tracking your order](/help/tracking-your-order).
`,
  },
  {
    slug: "addresses-and-payment-methods",
    title: "Addresses and payment methods",
    summary: "Saving shipping addresses and the test card on your account, and choosing the defaults checkout uses.",
    body: `# Addresses and payment methods

Your account page (**Your account**, once you are signed in) keeps the shipping addresses and
the payment method you use to check out. Only you can see or change them.

## Shipping addresses

Under **Shipping addresses**, fill in **Add an address** and choose **Save address**:

- **Full name**, **Address line 1**, **City**, **ZIP code** and **Country** are needed;
  **Address line 2** (an apartment, a suite) is optional.
- **Country** is a 2-letter country code, such as \`US\`, \`CA\` or \`GB\`.
- For a US address, **State** is the 2-letter code of the state (\`CA\`, \`NY\`) and the **ZIP code**
  has 5 digits or 9 (\`94105\` or \`94105-1234\`). Outside the US, State is optional.
- A field holds up to 100 characters (an address line 200, a ZIP code 20) and no control
  characters such as line breaks.

If something is not right, the form comes back with a message above it, the field in question
marked, and what you typed still filled in.

You can save up to **10 addresses**. To add another after that, delete one first.

### Your default address

Checkout ships to your **default** address, marked "Default" in the list.

- The first address you save becomes your default.
- Tick **Make this my default address** when you save a new one, or choose **Make default** on
  any saved address, to change it.
- Choose **Edit** to change an address; it stays your default if it was.
- Choose **Delete** to remove one. If you delete your default address, the most recently saved
  of the others becomes your default; if it was your only address, you have no default until you
  save another.

Orders you have already placed keep the address they were shipped to: changing or deleting a
saved address does not change them.

## Payment method

This marketplace runs with a built-in **test payment provider**, so you can try checkout without
a real card. Under **Payment method**, choose **Save the test card**: it appears as "Test card
ending in 4242" and is always approved.

- You never type a card number on your account page, and no card number is stored: a saved
  payment method is only the provider's reference and what may be shown (its name and last 4
  digits).
- The first payment method you save becomes your **default**, the one checkout charges.
  **Make default** chooses another when you have several; **Remove** deletes one (if it was the
  default, the most recently saved of the others becomes the default, or none).
- The test card can be saved once; saving it again changes nothing.
`,
  },
  {
    slug: "shipping-and-delivery",
    title: "Shipping and delivery",
    summary: "Who ships your order, how shipping prices and delivery estimates are set, and free-shipping thresholds.",
    body: `# Shipping and delivery

Every item is shipped by the **store that sells it**. If your cart holds items from several
stores, you receive several parcels, each with its own tracking number.

## Shipping options

Each offer uses one of the store's shipping profiles. Within the United States a profile
usually offers:

| Service | Typical delivery | Price |
|---|---|---|
| Standard | 3 to 7 business days | set by the store, often free |
| Expedited | 1 to 3 business days | set by the store |

Delivery estimates add the store's **handling time** (the days it needs to pack your order) to
the carrier's transit time. Some stores offer **free standard shipping over a threshold**,
for example on orders over $35 from that store.

The product page shows, under every offer, its standard shipping to the United States (the price,
or free, and the free-over threshold), the delivery estimate in business days and the return
window (30 days after delivery). The cart and the checkout page show the same for each store's
parcel, for your whole order from that store.

## Which offer is highlighted

When several stores sell the same product, the highlighted offer (the "buy box") is the
in-stock offer with the lowest **price plus standard shipping to the United States**, with new
items preferred over used ones. Other offers are always listed below it, cheapest first. The
highlighted offer says why it was chosen.

## Backorders

An offer marked *out of stock* that can still be bought is a **backorder**: the store ships it
as soon as new stock arrives. The product page shows this before you buy.

## Following a delivery

Your order page (**Account > Your orders**) shows each store's items with their status and, once
the store has shipped them, the carrier's tracking number. See
[Tracking your order](/help/tracking-your-order).
`,
  },
  {
    slug: "tracking-your-order",
    title: "Tracking your order",
    summary: "Where to see your orders, what each status means, tracking numbers and the e-mails we send.",
    body: `# Tracking your order

## Your orders

Sign in and open **Account > Your orders** ([/account/orders](/account/orders)): your orders,
newest first, each by its number (such as \`M-10042\`). Choose a number to open the order's page:
the items from each store, the totals, the shipping address, the status history and any returns.

## Statuses

Every item is shipped by the store that sells it, so an order with items from several stores
arrives in several parcels. Each store's items have their own status, and the order's status
follows them:

| Status | Meaning |
|---|---|
| Placed | the stores have your order and are preparing it |
| Shipped | every store has sent its items |
| Delivered | every store's items have arrived |

While some stores have shipped and others have not, the order stays **Placed** and each store's
section on the order page shows its own status.

## Tracking numbers and e-mails

When a store ships its items it enters the carrier's tracking number: it appears in that store's
section of the order page, and we e-mail it to you. Use it on the carrier's website to follow
the parcel. The **Status history** at the bottom of the order page lists every step with its time.

Once an order is delivered you have 30 days to ask for a return: see
[Returns and refunds](/help/returns).
`,
  },
  {
    slug: "returns",
    title: "Returns and refunds",
    summary: "How to return an item, the return window, and when you get your money back.",
    body: `# Returns and refunds

## Return window

You can ask for a return for **30 days after your order is delivered**. The order page says until
when; after that the return form is no longer offered.

## How to ask for a return

1. Open **Account > Your orders** and choose the order.
2. Under **Returns**, each store whose items you received has a form **Return items from** the
   store: for each item, enter the **quantity** to return and choose a **reason** (arrived
   damaged, not as described, wrong item sent, no longer needed, other).
3. Press **Request return**.

A return holds the items of one store, because each store handles the items it sent: to return
items from two stores, send each store's form. You can return up to the quantity you bought;
items already in a return (unless the store rejected it) cannot be returned again.

## What happens next

Your return appears under **Returns** on the order page with its status:

| Status | Meaning |
|---|---|
| Requested | the store has your request |
| Approved | the store accepted it: send the items back to the store |
| Received by the store | the store has the items back |
| Refunded | the money is on its way back |
| Rejected | the store turned the request down |

## Refunds

The refund is the price you paid for the returned items (shipping is not refunded). It goes
back to the payment method you paid with, and we e-mail you when the store refunds.
`,
  },
  {
    slug: "for-agents-public-api",
    title: "Connecting agents and apps: the public API and MCP server",
    summary: "Read the catalog with no account or key over JSON (/api/public/v1) or MCP (/api/mcp/mcp), and hand purchases back to people with cart links.",
    body: `# Connecting agents and apps

Our catalog is open to software: shopping assistants, AI agents, price trackers and research
tools can read exactly what a signed-out visitor sees on the site. **No account and no API key
are needed.**

## The public JSON API

Base URL: [\`/api/public/v1\`](/api/public/v1/openapi.json). The machine-readable description (OpenAPI 3.1) is at
[\`/api/public/v1/openapi.json\`](/api/public/v1/openapi.json).

| Endpoint | What it does |
|---|---|
| \`GET /search\` | Full-text and faceted search (\`q\`, \`category\`, \`brand\`, \`condition\`, \`price_min_cents\`, \`price_max_cents\`, \`sort\`, \`page\`, \`page_size\`) |
| \`GET /products/{slug}\` | One product with its purchasable offers, cheapest first, and the buy-box offer |
| \`GET /categories\` | The active category tree |
| \`POST /cart-links\` | A link that fills a person's own cart (see [Buying with a cart link](/help/buying-with-a-cart-link)) |

Conventions:

- Responses are \`{ "data": ..., "meta": { "request_id": ... } }\`; errors are
  \`{ "error": { "type", "code", "message", "param", "request_id" } }\`.
- Money is always an integer number of **cents** in USD (\`price_cents: 1999\` is $19.99).
- Offers say whether they are \`in_stock\`, never how many units exist.
- A product's \`slug\` is also its page: \`/p/{slug}\`.

## The MCP server

The same catalog is available as a Model Context Protocol server at **\`/api/mcp/mcp\`**
(streamable HTTP, stateless, POST only, no authentication). Its tools are
\`search_products\`, \`get_product\`, \`get_categories\`, \`create_cart_link\`, \`search_help\`,
\`get_help_article\` and \`get_connection_guide\`. Add it to an MCP client as a remote server
with the full URL of this site followed by \`/api/mcp/mcp\`.

## Being a good citizen

- Send a descriptive \`User-Agent\` (for example \`AcmeShoppingBot/1.2 (+https://acme.example/bot)\`).
- Rate limits are per IP and per endpoint: about 30 requests in a burst, then 5 per second
  (cart links: 10, then 1 per second). Every response carries \`X-RateLimit-Limit\`,
  \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; a \`429\` carries \`Retry-After\`; please
  honour it.
- Catalog responses are cacheable for 60 seconds (categories: 5 minutes) and carry an \`ETag\`:
  revalidate with \`If-None-Match\` and you get a free \`304\`.

## Purchases stay with people

The public API and the MCP server place no order and take no payment. An agent prepares a cart
link and the person opens it, reviews the cart and pays. Account holders can additionally connect
an agent to their own account over OAuth, approving each permission: see
[Connecting your own agent](/help/connecting-your-agent).

## Commerce platforms: UCP and ACP

Shopping platforms that speak the open commerce protocols check out here directly, giving the
buyer's e-mail address, shipping address and card as a person does at checkout: the Universal
Commerce Protocol (its business profile at [\`/.well-known/ucp\`](/.well-known/ucp)) and the
Agentic Commerce Protocol ([\`/.well-known/acp.json\`](/.well-known/acp.json)). One checkout may
hold several stores' items; it is charged once and becomes one order per store. Through UCP, an
account holder can link the platform to their account (OAuth), and its checkouts then keep to
the limits they set for agents.
`,
  },
  {
    slug: "connecting-your-agent",
    title: "Connecting your own agent to your account",
    summary: "Let an AI assistant or app work with your cart, orders and returns: connect it over OAuth, choose what it may do, and disconnect it at any time.",
    body: `# Connecting your own agent

An agent (an AI assistant such as Claude, Cursor or VS Code, or an app) can work with **your**
cart, orders and returns once you connect it to your account. You choose what it may do, and
you can disconnect it at any moment.

## Connecting

Give your agent the address of our agent server: this site's address followed by
\`/api/agent/mcp\` (apps that speak plain JSON use the buyer API at [\`/api/v1/buyer\`](/api/v1/buyer/openapi.json) instead,
described at [\`/api/v1/buyer/openapi.json\`](/api/v1/buyer/openapi.json)). The agent opens a
page of ours in your browser:

1. sign in, if you are not signed in already;
2. read which agent is asking (its name and the site it sends you back to) and what it asks to
   do, one checkbox per permission, all ticked;
3. untick anything you do not want it to do, then choose **Allow** (or **Deny**).

The agent gets only what you left ticked. Nothing about your password or card is shared with it.

## The permissions

| Permission | What the agent may do |
|---|---|
| See your name and e-mail address | read your profile |
| See your cart | read your cart |
| Add, change and remove items in your cart | change your cart (and read it) |
| See your orders | read your orders and their tracking |
| See your returns | read your returns |
| Ask for returns of your delivered orders | request returns (and read them) |
| Place orders for you | check out, within your agent spending limits (and change your cart) |

Placing orders also needs you to allow it on **Your account → Agents**, with a per-order and a
monthly limit: see [Letting agents place orders](/help/agent-settings). Orders an agent places
ship to your default address and are paid with your default payment method.

## Seeing and disconnecting agents

**Your account → Agents** (\`/account/agents\`) lists every agent you connected: what you let it
do, when it was first and last used, and what it spent this month. **Revoke** disconnects it at
once: its very next request is refused. To give it access again, connect it again.

An agent that has not been used for 90 days is disconnected by itself.
`,
  },
  {
    slug: "agent-settings",
    title: "Letting agents place orders: agent settings",
    summary: "Whether agents you connect may place orders for you, the per-order and monthly limits they must stay within, and what agents spent this month.",
    body: `# Letting agents place orders

Agents (AI assistants and other apps) that you connect to your account can keep your cart and,
if you allow it, place orders for you. You decide on **Your account → Agents**
(\`/account/agents\`), the same page where you connect agents and see the ones connected. Only you,
signed in, can change these settings; no agent can change them for you.

## Agent settings

- **Let agents place orders**: off until you turn it on. While it is off, no agent can place
  an order for you, whatever else it may do.
- **Per-order limit (USD)**: the most one agent order may cost, shipping included.
- **Monthly limit (USD)**: the most all agent orders together may cost in a month, shipping
  included.

Type limits in dollars, with cents if you like: \`50\` or \`49.99\` (a leading \`$\` is fine).
Leave out thousands separators (\`1000\`, not \`1,000\`); at most two decimals; from $0.01 to
$1,000,000. To turn agent orders on you need both limits, and the per-order limit cannot be more
than the monthly limit. With agent orders off you may leave the limits empty, or keep them for
later. Choose **Save**; if something is wrong, the page says what and nothing is changed.

The page also shows **Spent by agents this month**: what agent orders cost this month, out of
your monthly limit.

## What counts as a month

A month is a **calendar month in UTC**: it starts at midnight UTC on the 1st (4 pm or 5 pm
Pacific time on the last day of the month before). Every order an agent placed for you since
then counts, except cancelled ones; returned items still count.

## When an agent places an order

An agent order is placed only when all of these hold:

1. the marketplace lets agents place orders (a marketplace-wide switch its operators control;
   when it is off, your settings are kept and apply once it is on again);
2. you turned **Let agents place orders** on;
3. the order's total is within your **per-order limit**;
4. the order's total fits in what is left of your **monthly limit**;
5. you gave the agent permission to check out when you connected it.

Otherwise nothing is placed and the agent is told which rule stopped it. Agent orders ship to
your default address and are paid with your default payment method (see "Addresses and payment
methods"). Two agents buying at the same moment cannot together go past your monthly limit.

## When an agent asks you to approve an order

When rule 2, 3 or 4 stops an order, an agent whose app can open a web page for you may ask you
instead: your app shows a link to a page on this site, **Approve an agent's order**. Signed in,
you see the order as the agent priced it (each store's items and shipping, the total), why it
needs you, and what is left of your monthly limit. Choose:

- **Approve order**: the agent may place exactly this order once, at this total, within 15
  minutes of asking. If a price, an item or the shipping changes before it does, it has to ask
  you again. Your settings do not change, and the order counts toward your monthly spend.
- **Decline**: the agent cannot place this order; it is not sent to ask you again about it.

If you do not answer within 15 minutes the request expires. Only you can answer, and only on
this site.

Your order pages mark these orders **Placed by an agent**, and the stores see the same. You
can return them like any other order.
`,
  },
  {
    slug: "selling-on-the-marketplace",
    title: "Selling on the marketplace",
    summary: "The seller dashboard: your stores, listings, prices, conditions, stock, shipping templates, API keys, webhooks and the order desk.",
    body: `# Selling on the marketplace

## Your stores and the seller dashboard

Stores are opened by the marketplace team; ask them to make your account an owner of yours.
Then sign in and open the **seller dashboard** at [/seller](/seller): it lists the stores you
own. Each store has the sections **Listings**, **Shipping templates**, **API keys**, **Webhooks**
and **Orders** (see "The order desk" below); if you own several stores, **Switch to** at the top
takes you to the others. The dashboard works without JavaScript and on a phone.

## Listings

A **listing** is your offer for a product: your price, condition, stock and shipping. Many
stores can list the same product; shoppers see all offers on one product page.

**Listings** shows your listings 25 to a page, most recently changed first, with title, SKU,
condition, price, quantity, status and when it was last updated. Filter by **Status** (all but
archived, draft, active, inactive, archived, or everything) and **Search by SKU or title**.

**New listing** creates one in two steps:

1. **The product.** Find a product already in the catalog by title or GTIN (EAN/UPC) and choose
   **Sell this**, or describe a new product: title, category, brand (optional) and description
   (optional). Images, attributes, GTIN and MPN of a new product can be given through the
   seller API.
2. **Your offer.**
   - **SKU**: your own reference, unique within your store.
   - **Condition**: new, like new, very good, good, acceptable, refurbished, used, or for parts.
   - **Price** and **list price** in US dollars (such as 19.99). A blank list price is the
     price; when the list price is higher than the price, the offer is shown as on sale.
   - **Quantity in stock**: shoppers never see your stock level, only whether the offer is in
     stock. Tick **Allow backorder** to keep selling at zero.
   - **Shipping template**: needed before you can publish.

Open a listing (its title in the table) to edit those fields, or change its quantity right in
the table. If stock changed meanwhile (a sale, or your software through the API), the dashboard
saves nothing and tells you, so it never overwrites a newer number.

## Listing states

| State | Visible to shoppers | How to get there |
|---|---|---|
| Draft | No | every new listing starts here |
| Active | Yes | **Publish** a draft (we check its price, product and shipping template), or **Activate** an inactive one |
| Inactive | No | **Deactivate** an active listing; **Activate** it again any time |
| Archived | No | **Archive** (on the listing's page) retires it for good: it becomes read-only |

## Shipping templates

**Shipping templates** lists your templates with their rates and how many listings use each.
A template has a name, **handling days** (before the parcel ships) and up to 50 rates; the form
has rows for at least five, and blank rows are ignored. Each rate has a **region** (a two-letter
country code such as \`US\`, or \`*\` for everywhere else), a **service** (standard or
expedited), a **price** in US dollars, optionally **free over** an order value in US dollars,
and the **min** and **max days** in transit. A change applies at once to every listing using the
template. The standard rate for \`US\` (else for \`*\`) counts toward the landed price that
decides the highlighted offer.

## The order desk

**Orders** (at the top of every dashboard page, or [/seller/orders](/seller/orders)) lists the
orders holding items of your stores, newest first, by order number; if you own several stores,
choose one under **Store** or see them all. Open an order to see, for each of your stores, the
items to send, the buyer's shipping address and e-mail, and the status. You see only your own
stores' items, never other stores' items or the buyer's payment.

- **Mark shipped**: enter the carrier's **Tracking number** (required, up to 64 characters) and
  press **Mark shipped**. The buyer sees it on their order page and gets it by e-mail.
- **Mark delivered**: once the parcel has arrived, press **Mark delivered**.
- **Cancel order**: if you cannot send items that have not shipped, choose a **Reason** (out of
  stock, cannot ship to this address, the buyer asked to cancel, other) and press **Cancel
  order**. The items go back into your stock, the buyer is refunded them and your shipping
  charge, and is e-mailed why. Items that have shipped cannot be cancelled: the buyer returns
  them instead.

The order is shipped once every store in it has shipped (or cancelled), delivered once every
store has delivered, and cancelled once every store has cancelled; until then the buyer sees each
store's own status.

**Returns** ([/seller/returns](/seller/returns), and on each order's page) lists the returns of
your stores' items with the quantities and the buyer's reasons. A buyer can ask within 30 days
of delivery. Each return has the buttons its status allows:

| Button | From | To |
|---|---|---|
| **Approve** | requested | approved: the buyer sends the items back |
| **Mark received** | approved | received |
| **Refund** | received | refunded: the returned items' price (not shipping) goes back to the buyer's payment method, and the buyer is e-mailed |
| **Reject** | requested or approved | rejected |

## Automate it

Listings, stock, shipping templates, orders and returns are also available through the seller API at [\`/api/v1\`](/api/v1/openapi.json),
described at [\`/api/v1/openapi.json\`](/api/v1/openapi.json). See
[Seller API keys](/help/seller-api-keys). To have your store's events sent to your own software
as they happen, see [Seller webhooks](/help/seller-webhooks).
`,
  },
  {
    slug: "seller-api-keys",
    title: "Seller API keys",
    summary: "Create, scope, use and revoke API keys that let your own software manage listings, stock and shipping.",
    body: `# Seller API keys

The seller API ([\`/api/v1\`](/api/v1/openapi.json)) lets your inventory system, ERP or scripts manage listings, stock
and shipping templates for one store.

## Create a key

1. Open the seller dashboard at [/seller](/seller), choose your store, then **API keys**
   (store owners only).
2. Under **Create an API key**, give the key a **name** and tick its **scopes**:
   - \`listings:read\`: read listings and shipping templates, including the change feed,
   - \`listings:write\`: create and update listings, publish, change status, adjust stock,
   - \`shipping:write\`: create and update shipping templates,
   - \`orders:read\`: read the store's orders, including the change feed,
   - \`orders:write\`: mark the store's orders shipped and delivered, handle returns,
   - \`webhooks:read\`: read the store's webhook endpoints and their delivery log,
   - \`webhooks:write\`: register, change and delete webhook endpoints, rotate their secrets,
     replay deliveries,
   - \`audit:read\`: read the store's audit log.
3. Press **Create API key**. The key is created and the next page shows it: copy it there (the
   **Copy** button, or select it). It looks like \`mk_live_<key id>.<secret>\` and is **shown
   only once**: reloading or reopening that page says **Already shown** and creates no other key,
   and we keep only a hash of the secret. Afterwards the keys list shows it as \`mk_live_<key id>.…\` and its last four
   characters, with its name, scopes, when it was created and when it was last used.

## Use a key

Send it as a bearer token:

\`\`\`http
GET /api/v1/listings?limit=100 HTTP/1.1
Authorization: Bearer mk_live_...
\`\`\`

- Lists are paged with \`limit\` (up to 100) and the \`next_cursor\` of the previous page.
- \`GET /api/v1/listings?updated_since=2026-11-01T00:00:00Z\` returns everything that changed
  since then, including archived listings, so a sync job never misses a removal.
- \`POST /api/v1/inventory/batch\` applies up to 100 stock changes atomically.
- Send an \`Idempotency-Key\` header on every POST, PATCH and DELETE so that a retry after a network
  error is never applied twice.
- Rate limits are per key; watch the \`X-RateLimit-*\` headers and honour \`Retry-After\`.

## Keep keys safe

Store keys in a secrets manager, never in source code. Give each integration its own key with
only the scopes it needs. If a key leaks, press **Revoke** beside it on the **API keys** page: it
stops working immediately (the API answers 401 \`api_key_revoked\`), and you can create a
replacement. A key for a short job can be made to expire: choose **Expires** (in 30 days, 90 days
or a year) when you create it. From then on it answers 401 \`api_key_expired\`; the keys list
shows when each key expires.
`,
  },
  {
    slug: "seller-webhooks",
    title: "Seller webhooks",
    summary: "Have your store's events (orders, shipments, returns, sold-out listings) sent to your own software as they happen, signed, retried, with a delivery log and replays.",
    body: `# Seller webhooks

A webhook sends your store's events to your own software (an ERP, an inventory system, a script)
as they happen, instead of it asking over and over.

## Add an endpoint

1. Open the seller dashboard at [/seller](/seller), choose your store, then **Webhooks** (store
   owners only).
2. Under **Add an endpoint**, enter the **Endpoint URL**: an \`https\` address of yours whose host
   resolves to public addresses only (no private, loopback or link-local address, no user name or
   password in it). It is checked when you save it and again at every delivery.
3. Tick the **events** to send (at least one), and optionally write a **description** for
   yourself.
4. Press **Add endpoint**. The next page shows the endpoint's **signing secret**
   (\`whsec_\` and 32 characters) **only this once**: copy it into your receiver's settings.
   Reloading or reopening that page says **Already shown** and adds nothing.

A store has at most 16 endpoints. Each endpoint's page lets you change its URL, events and
description, **Disable** and **Enable** it, **Rotate secret**, and **Delete** it (with its delivery
log). The same can be done through the seller API with a key that has the \`webhooks:read\` and
\`webhooks:write\` scopes (see [Seller API keys](/help/seller-api-keys)).

## The events

| Event | Sent when | Carries |
|---|---|---|
| \`order.created\` | an order with items of your store was placed | your part of the order |
| \`order.canceled\` | you cancelled your part of an order (dashboard or API); the buyer was refunded it | your part of the order |
| \`order_part.shipped\` | your part of an order was marked shipped (dashboard, API or the marketplace team) | your part of the order |
| \`order_part.delivered\` | your part of an order was marked delivered | your part of the order |
| \`return.requested\` | a buyer asked to return items of yours | the return |
| \`return.refunded\` | a return of yours was refunded | the return |
| \`listing.sold_out\` | a sale took the last unit of a listing that does not allow backorders | the listing |

Each event is a POST with a JSON body \`{ "type": ..., "timestamp": ..., "data": ... }\`, where
\`data\` is the object as the seller API shows it, as it was when the change was saved. An event is
saved together with the change it reports, so you never hear of a change that did not happen.
It is delivered **at least once**: the same event can arrive twice, so skip one whose
\`webhook-id\` you have already handled.

## Verify the signature

Deliveries are signed as the **Standard Webhooks** specification says, with three headers:

- \`webhook-id\`: the event's id, the same on every attempt and replay,
- \`webhook-timestamp\`: when this attempt was sent, in Unix seconds,
- \`webhook-signature\`: \`v1,\` followed by the base64 HMAC-SHA256 of
  \`<webhook-id>.<webhook-timestamp>.<body>\`, keyed with the base64-decoded part of your secret
  after \`whsec_\`.

Any Standard Webhooks (or Svix) library checks all of this for you; give it the raw body exactly
as received, and refuse a delivery that does not verify.

## Rotate the secret

**Rotate secret** on the endpoint's page makes a new secret, shown once. For the next 24 hours
(the page says until when) every delivery is signed with both the new and the previous secret,
two signatures separated by a space, so you can switch your receiver to the new one without
missing an event. After that only the new secret signs.

## Retries and disabling

Answer with a 2xx status within 10 seconds to acknowledge an event. Anything else (another
status, a timeout, a refused connection) is retried up to 16 times: 30 seconds after the first
attempt, then 1, 2, 4, 8, 16 and 32 minutes, 1 h 04, 2 h 08, 4 h 16, 8 h 32, then every 12
hours, each wait stretched by up to 20 %, so the last attempt comes 77 to 92 hours after the
first. Then the delivery is failed.

If your receiver answers **410 Gone**, the endpoint is disabled at once and its page says why.
A disabled endpoint is sent nothing (deliveries still waiting are skipped) until you press
**Enable**; you can also disable it yourself.

## The delivery log and replays

An endpoint's page lists its deliveries, newest first: the event type and id, the status
(pending, delivered, failed or skipped), how many attempts were made, the last answer or error,
and when the next attempt is due. **Replay** sends a delivery's event again as a new delivery,
with the same \`webhook-id\` and body: after your receiver was down, replay its failed
deliveries. An endpoint must be enabled to replay to it.
`,
  },
];

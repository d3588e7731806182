/**
 * The views' one script (plain ES2020, no framework, no imports): the View's side of the MCP Apps
 * protocol (2026-01-26) over postMessage with its host, and the rendering of each view from a
 * tool result's structured content. Text goes in with `textContent` only, never as markup, so a
 * seller's title cannot inject anything. The host forwards `tools/call` to our server; the view
 * calls the app-only tools its server declares, and get_product and create_cart_link (open to the
 * model and views alike: the public server lists exactly its contract's seven tools).
 */
export const VIEW_SCRIPT = String.raw`(() => {
const body = document.body, root = document.getElementById("root"), status = document.getElementById("status");
const VIEW = body.dataset.view, ACTIONS = body.dataset.actions;
let nextId = 1, currency = body.dataset.currency;
const pending = new Map();
const post = (msg) => window.parent.postMessage(Object.assign({ jsonrpc: "2.0" }, msg), "*");
const request = (method, params) => new Promise((resolve, reject) => { const id = nextId++; pending.set(id, { resolve, reject }); post({ id, method, params }); });
const notify = (method, params) => post({ method, params });
window.addEventListener("message", (event) => {
  const msg = event.data;
  if (event.source !== window.parent || !msg || msg.jsonrpc !== "2.0") return;
  if (msg.method === undefined) {
    const waiting = pending.get(msg.id);
    if (!waiting) return;
    pending.delete(msg.id);
    if (msg.error) waiting.reject(new Error(msg.error.message)); else waiting.resolve(msg.result);
  } else if (msg.method === "ui/notifications/tool-result") show(msg.params);
  else if (msg.method === "ui/notifications/host-context-changed") theme(msg.params);
  else if (msg.id !== undefined) post({ id: msg.id, result: {} });
});
function theme(context) { if (context && context.theme) document.documentElement.style.colorScheme = context.theme; }

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v); else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}
const money = (cents, cur) => new Intl.NumberFormat("en-US", { style: "currency", currency: cur || currency }).format(cents / 100);
const say = (text, bad) => { status.textContent = text; status.className = bad ? "status bad" : "status"; };
const errorOf = (result) => (result.structuredContent && result.structuredContent.error) || { message: (result.content && result.content[0] && result.content[0].text) || "The call failed." };
async function call(name, args) {
  const result = await request("tools/call", { name, arguments: args });
  if (result.isError) throw new Error(errorOf(result).message);
  return result.structuredContent;
}
function act(button, work) {
  button.disabled = true;
  work().catch((err) => say(err.message, true)).finally(() => { button.disabled = false; });
}
function openLink(url) { request("ui/open-link", { url }).catch(() => say(url)); }
const link = (url, text) => h("a", { href: url, onclick: (e) => { e.preventDefault(); openLink(url); } }, text);
function render(...nodes) { root.replaceChildren(...nodes.flat()); }
function byStore(lines) {
  const groups = new Map();
  for (const line of lines) { if (!groups.has(line.store_slug)) groups.set(line.store_slug, []); groups.get(line.store_slug).push(line); }
  return groups;
}

function show(result) {
  const sc = result && result.structuredContent;
  say("");
  if (!sc || sc.error || (result.isError && !sc)) { render(h("p", { class: "status bad" }, errorOf(result || {}).message)); return VIEW === "checkout" ? summary(null) : undefined; }
  if (sc.data && sc.data.currency) currency = sc.data.currency;
  if (VIEW === "products") return Array.isArray(sc.data) ? carousel(sc.data) : product(sc.data);
  if (VIEW === "cart") return cart(sc.data);
  return order(sc.data);
}

function carousel(cards) {
  if (cards.length === 0) return render(h("p", { class: "muted" }, "No products match."));
  render(h("ul", { class: "carousel", "aria-label": "Products" }, cards.map((c) => h("li", { class: "card" },
    c.image_url ? h("img", { src: c.image_url, alt: "", width: 160, height: 160, loading: "lazy" }) : h("div", { class: "noimg" }),
    h("strong", { class: "title" }, c.title),
    c.brand ? h("span", { class: "muted" }, c.brand.name) : null,
    c.min_price_cents === null ? h("span", { class: "muted" }, "No offer now") : h("span", { class: "price" }, "from " + money(c.min_price_cents, c.currency)),
    h("button", { type: "button", "aria-label": "See offers for " + c.title, onclick: (e) => act(e.currentTarget, async () => product((await call("get_product", { slug: c.slug })).data, cards)) }, "See offers"),
  ))));
}

function product(p, back) {
  const image = p.images[0];
  render(
    back ? h("button", { type: "button", class: "plain", onclick: () => carousel(back) }, "‹ All results") : null,
    h("div", { class: "product" },
      image ? h("img", { src: image.url, alt: image.alt || "", width: 120, height: 120 }) : h("div", { class: "noimg" }),
      h("div", null, h("h1", null, p.title), p.brand ? h("p", { class: "muted" }, p.brand.name) : null, link(p.url, "Open in the store"))),
    p.offers.length === 0 ? h("p", { class: "muted" }, "No offer can be bought now.") : h("ul", { class: "offers", "aria-label": "Offers" }, p.offers.map((o) => h("li", { class: "offer" },
      h("div", null,
        h("span", { class: "price" }, money(o.price_cents, o.currency)), o.on_sale ? h("s", { class: "muted" }, money(o.list_price_cents, o.currency)) : null,
        o.listing_id === p.buy_box_listing_id ? h("span", { class: "badge" }, "Featured") : null,
        h("div", { class: "muted" }, o.condition_label + " · " + o.store_name + " · " + (o.in_stock ? "In stock" : "Backorder"))),
      ACTIONS === "cart"
        ? h("button", { type: "button", "aria-label": "Add to cart: " + o.store_name + ", " + o.condition_label, onclick: (e) => act(e.currentTarget, async () => {
            const c = (await call("view_add_to_cart", { listing_id: o.listing_id, quantity: 1 })).data;
            say("Added to the cart: " + c.lines.reduce((n, l) => n + l.quantity, 0) + " items, " + money(c.subtotal_cents, c.currency) + ".");
          }) }, "Add to cart")
        : h("button", { type: "button", "aria-label": "Buy: " + o.store_name + ", " + o.condition_label, onclick: (e) => act(e.currentTarget, async () => {
            const made = (await call("create_cart_link", { items: [{ listing_id: o.listing_id, quantity: 1 }] })).data;
            say("Your cart link is open in the store.");
            openLink(made.url);
          }) }, "Buy"),
    ))),
  );
}

function cart(c) {
  const groups = byStore(c.lines);
  render(
    h("h1", null, "Cart"),
    c.lines.length === 0 ? h("p", { class: "muted" }, "The cart is empty.") : [...groups].map(([slug, lines]) => h("section", { class: "store", "data-store": slug },
      h("h2", null, slug),
      h("ul", { class: "lines" }, lines.map((l) => {
        const name = l.title || "An offer no longer listed";
        const set = (quantity) => (e) => act(e.currentTarget, async () => cart((await call("view_set_quantity", { listing_id: l.listing_id, quantity })).data));
        return h("li", { class: "line" },
          h("div", null, h("strong", null, name), h("div", { class: "muted" }, money(l.unit_price_cents, c.currency) + " · " + l.condition + (l.purchasable ? "" : " · cannot be bought now"))),
          h("div", { class: "qty" },
            h("button", { type: "button", "aria-label": "One less " + name, onclick: set(l.quantity - 1) }, "−"),
            h("output", { "aria-label": "Quantity of " + name }, l.quantity),
            h("button", { type: "button", "aria-label": "One more " + name, onclick: set(l.quantity + 1), disabled: l.quantity >= 99 }, "+")),
          h("span", { class: "price" }, money(l.line_total_cents, c.currency)));
      })))),
    h("p", { class: "total" }, "Subtotal ", h("span", { class: "price" }, money(c.subtotal_cents, c.currency))),
    h("div", { id: "summary" }),
  );
  return summary(groups);
}

function order(o) {
  render(
    h("h1", null, "Order " + o.number),
    h("p", { class: "muted" }, "Status: " + o.status + " · ships to " + o.shipping_address.city + ", " + o.shipping_address.country),
    [...byStore(o.lines)].map(([slug, lines]) => h("section", { class: "store", "data-store": slug },
      h("h2", null, slug),
      h("ul", { class: "lines" }, lines.map((l) => h("li", { class: "line" }, h("span", null, l.quantity + " × " + l.title), h("span", { class: "price" }, money(l.line_total_cents, o.currency))))))),
    h("dl", { class: "sums" },
      h("dt", null, "Subtotal"), h("dd", null, money(o.subtotal_cents, o.currency)),
      h("dt", null, "Shipping"), h("dd", null, money(o.shipping_cents, o.currency)),
      h("dt", null, "Total"), h("dd", { class: "price" }, money(o.total_cents, o.currency))),
    h("div", { id: "summary" }),
  );
  return summary(null);
}

async function summary(groups) {
  let box = document.getElementById("summary");
  if (!box) { box = h("div", { id: "summary" }); root.append(box); }
  let s;
  try { s = (await call("view_checkout_summary", {})).data; } catch (err) { box.replaceChildren(h("p", { class: "status bad" }, err.message)); return; }
  const a = s.agent_orders;
  const limits = a.enabled
    ? "Agents may spend up to " + money(a.per_order_limit_cents, s.currency) + " an order; " + money(a.left_this_month_cents, s.currency) + " of " + money(a.monthly_limit_cents, s.currency) + " left this month."
    : "The account holder has not let agents place orders.";
  const parts = [h("p", { class: "limits" }, limits)];
  if (groups) {
    for (const st of s.stores) { const sec = root.querySelector("[data-store=\"" + CSS.escape(st.store_slug) + "\"] h2"); if (sec) sec.textContent = st.store_name + " · shipping " + money(st.shipping_cents, s.currency); }
    if (s.stores.length) parts.unshift(h("dl", { class: "sums" },
      h("dt", null, "Shipping to " + s.country), h("dd", null, money(s.shipping_cents, s.currency)),
      h("dt", null, "Total"), h("dd", { class: "price" }, money(s.total_cents, s.currency))));
  }
  box.replaceChildren(...parts);
}

new ResizeObserver(() => notify("ui/notifications/size-changed", { width: Math.ceil(document.documentElement.scrollWidth), height: Math.ceil(document.documentElement.scrollHeight) })).observe(body);
request("ui/initialize", { appInfo: { name: "marketplace-" + VIEW, version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" })
  .then((result) => { theme(result && result.hostContext); notify("ui/notifications/initialized", {}); })
  .catch((err) => say(err.message, true));
})();`;

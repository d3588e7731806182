/**
 * Generated product pictures: a deterministic SVG per product and view, composed from the
 * product's leaf category (backdrop hue and silhouette), its colour attribute (the object's fill)
 * and its title's initials. The seed points product_images at `productImagePath(slug, n)`, so the
 * API's `images` and `image_url` lead here; the same data always gives the same bytes.
 * (No database here: the seed imports it; lookups are in product-image-subject.ts.)
 */

/** `/images/p/{slug}/{n}.svg`, n counting from 1 (position 0 is view 1). */
export function productImagePath(slug: string, n: number): string {
  return `/images/p/${slug}/${n}.svg`;
}

export interface ProductImageSubject {
  slug: string;
  title: string;
  categorySlug: string;
  categoryName: string;
  color: string | null;
}


/** FNV-1a, 32 bits: a stable number from a string (no randomness, no dependency). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Named colours of the catalog's `color` attribute; anything else gets a hue from its name. */
const NAMED_COLORS: Record<string, string> = {
  black: "#1f2328",
  white: "#f6f7f9",
  silver: "#c0c4ca",
  "space gray": "#5b6068",
  "midnight blue": "#1e2a4f",
  graphite: "#3d4148",
  "sage green": "#9bae8f",
  sage: "#a3b49a",
  "rose gold": "#d9a08f",
  cream: "#f1e7cf",
  charcoal: "#36393f",
  terracotta: "#c46a4a",
  navy: "#1f2f5c",
  natural: "#d8c3a0",
  "forest green": "#2f5d3a",
  orange: "#ee7b22",
  "slate blue": "#5a6d9c",
  red: "#cf2e2e",
  olive: "#6b7036",
  gray: "#8a8f98",
  grey: "#8a8f98",
  "volt yellow": "#d7f23a",
  multicolor: "url(#multi)",
  blue: "#2f6fdb",
  yellow: "#f2c230",
  pink: "#ec8fb5",
  green: "#3a9b54",
  purple: "#7d4cc2",
  "natural wood": "#b88a57",
  camel: "#c19a6b",
  ivory: "#f3eedb",
  burgundy: "#7a1f33",
  "heather gray": "#a4a6ab",
  "denim blue": "#4a6c94",
  clear: "rgba(255,255,255,0.55)",
  nude: "#e3b9a0",
  rose: "#e48ea2",
  berry: "#8e2a5a",
  coral: "#f27e6b",
  light: "#f2d6c0",
  medium: "#c99a74",
  deep: "#7b5138",
};

function colorFill(color: string | null, fallbackHue: number): string {
  if (color === null) return `hsl(${fallbackHue} 35% 42%)`;
  return NAMED_COLORS[color.toLowerCase()] ?? `hsl(${hash(color.toLowerCase()) % 360} 55% 50%)`;
}

/** Whether dark text reads better than white on `fill` (#rrggbb only; gradients and hsl() fills are mid-tone). */
function isLight(fill: string): boolean {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(fill);
  if (!m) return fill.startsWith("rgba(255");
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((h) => parseInt(h, 16) / 255);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b! > 0.6;
}

/** Up to two initials of the title's words (letters or digits), upper-case. */
export function titleInitials(title: string): string {
  const words = title.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join("");
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&${{ "<": "lt", ">": "gt", "&": "amp", '"': "quot", "'": "apos" }[c]};`);
}

/** Silhouettes, one per leaf category by hash: each is path data in a 400x400 box centred on 200,200. */
const SILHOUETTES = [
  "M120 110h160a20 20 0 0 1 20 20v140a20 20 0 0 1-20 20H120a20 20 0 0 1-20-20V130a20 20 0 0 1 20-20z",
  "M200 90a110 110 0 1 1 0 220a110 110 0 1 1 0-220z",
  "M200 85l115 200H85z",
  "M200 90l95 55v110l-95 55l-95-55V145z",
  "M150 95h100l20 40v160a15 15 0 0 1-15 15H145a15 15 0 0 1-15-15V135z",
  "M200 95l30 70h75l-60 45l22 75l-67-45l-67 45l22-75l-60-45h75z",
  "M100 170a100 60 0 0 1 200 0v60a100 60 0 0 1-200 0z",
  "M135 90h130v60l35 35v115H100V185l35-35z",
] as const;

/**
 * The SVG of view `n` (1-based) of a product. View 1 is the whole object; view 2 a close-up; view
 * 3 the object smaller, on a surface. Safe to serve as a document: no script, no external
 * reference, every text escaped.
 */
export function productImageSvg(subject: ProductImageSubject, n: number): string {
  const categoryHash = hash(subject.categorySlug);
  const hue = categoryHash % 360;
  const silhouette = SILHOUETTES[(categoryHash >>> 9) % SILHOUETTES.length]!;
  const fill = colorFill(subject.color, (hue + 180) % 360);
  const initials = escapeXml(titleInitials(subject.title) || "?");
  const label = escapeXml(subject.categoryName.length > 32 ? `${subject.categoryName.slice(0, 31)}…` : subject.categoryName);
  const title = escapeXml(subject.title);
  const tilt = (hash(subject.slug) % 21) - 10;
  const view = ((n - 1) % 3) + 1;

  const transform =
    view === 1
      ? `rotate(${tilt} 200 200)`
      : view === 2
        ? `translate(200 200) scale(1.9) rotate(${tilt + 25}) translate(-200 -230)`
        : `translate(200 250) scale(0.62) rotate(${-tilt}) translate(-200 -200)`;
  const surface =
    view === 3
      ? `<rect x="0" y="318" width="400" height="82" fill="hsl(${hue} 30% 80%)"/><ellipse cx="200" cy="330" rx="85" ry="12" fill="#000" opacity="0.18"/>`
      : "";
  const pattern =
    view === 2
      ? `<g stroke="hsl(${hue} 45% 72%)" stroke-width="10" opacity="0.6">${[0, 1, 2, 3, 4, 5, 6]
          .map((i) => `<line x1="${i * 70 - 100}" y1="0" x2="${i * 70 + 100}" y2="400"/>`)
          .join("")}</g>`
      : `<circle cx="${60 + (categoryHash % 280)}" cy="70" r="46" fill="hsl(${hue} 55% 88%)" opacity="0.8"/>`;
  const textFill = view === 2 ? "#fff" : "#1f2328";
  const [initialsFill, initialsStroke] = isLight(fill) ? ["#1f2328", "#fff"] : ["#fff", "#1f2328"];

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 400 400" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 60% 93%)"/><stop offset="1" stop-color="hsl(${hue} 45% 78%)"/></linearGradient>`,
    `<linearGradient id="multi" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#e74c3c"/><stop offset="0.33" stop-color="#f1c40f"/><stop offset="0.66" stop-color="#2ecc71"/><stop offset="1" stop-color="#3498db"/></linearGradient></defs>`,
    `<rect width="400" height="400" fill="url(#bg)"/>`,
    pattern,
    surface,
    `<g transform="${transform}"><path d="${silhouette}" fill="${fill}" stroke="hsl(${hue} 40% 30%)" stroke-width="4" stroke-linejoin="round"/></g>`,
    view === 2
      ? ""
      : `<text x="200" y="${view === 3 ? 262 : 218}" font-family="Helvetica, Arial, sans-serif" font-size="${view === 3 ? 34 : 56}" font-weight="700" text-anchor="middle" fill="${initialsFill}" stroke="${initialsStroke}" stroke-width="${view === 3 ? 1 : 1.5}" paint-order="stroke">${initials}</text>`,
    view === 2 ? `<rect x="0" y="356" width="400" height="44" fill="#1f2328" opacity="0.55"/>` : "",
    `<text x="200" y="${view === 3 ? 368 : 384}" font-family="Helvetica, Arial, sans-serif" font-size="22" text-anchor="middle" fill="${textFill}">${label}</text>`,
    `</svg>`,
  ].join("");
}

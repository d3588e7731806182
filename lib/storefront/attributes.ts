/**
 * How a product attribute reads on the product page: one table of labels and units for the keys
 * the catalog uses; any other key gets a label made from its name and its value as it is.
 */
type AttributeValue = unknown;

interface AttributeFormat {
  label: string;
  /** Unit after a number ("208 g"); a function for units with a singular ("1 month"). */
  unit?: string | ((n: number) => string);
}

const plural = (one: string, many: string) => (n: number) => (n === 1 ? one : many);

export const ATTRIBUTE_FORMATS: Record<string, AttributeFormat> = {
  color: { label: "Color" },
  shade: { label: "Shade" },
  material: { label: "Material" },
  size: { label: "Size" },
  scent: { label: "Scent" },
  weight_g: { label: "Weight", unit: "g" },
  volume_ml: { label: "Volume", unit: "ml" },
  storage_gb: { label: "Storage", unit: "GB" },
  voltage: { label: "Voltage", unit: "V" },
  warranty_months: { label: "Warranty", unit: plural("month", "months") },
  pages: { label: "Pages" },
  author: { label: "Author" },
  format: { label: "Format" },
  language: { label: "Language" },
  age_range: { label: "Age range" },
  wireless: { label: "Wireless" },
  waterproof: { label: "Waterproof" },
  cordless: { label: "Cordless" },
  dishwasher_safe: { label: "Dishwasher safe" },
  machine_washable: { label: "Machine washable" },
  batteries_required: { label: "Batteries required" },
  illustrated: { label: "Illustrated" },
  vegan: { label: "Vegan" },
  cruelty_free: { label: "Cruelty free" },
};

/** `screen_size_in` -> "Screen size in": the key's words, the first capitalised. */
export function humaniseAttributeKey(key: string): string {
  const words = key.replace(/[_-]+/g, " ").trim().replace(/\s+/g, " ");
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

export function attributeLabel(key: string): string {
  return ATTRIBUTE_FORMATS[key]?.label ?? humaniseAttributeKey(key);
}

export function attributeValue(key: string, value: AttributeValue): string {
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "number") {
    const unit = ATTRIBUTE_FORMATS[key]?.unit;
    const n = value.toLocaleString("en-US");
    if (!unit) return n;
    return `${n} ${typeof unit === "function" ? unit(value) : unit}`;
  }
  if (Array.isArray(value)) return value.map((v) => attributeValue(key, v)).join(", ");
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The product page's details rows, in the product's attribute order. */
export function attributeRows(attributes: Record<string, AttributeValue>): { key: string; label: string; value: string }[] {
  return Object.entries(attributes)
    .filter(([, value]) => value !== null && value !== undefined && value !== "")
    .map(([key, value]) => ({ key, label: attributeLabel(key), value: attributeValue(key, value) }));
}

import type { DbClient } from "@/lib/db";

/**
 * Marketplace settings, changed on /admin or with `npm run admin -- setting set`. Each has a
 * default that holds until it is first set.
 */
export const SETTINGS = {
  /** Agents may place orders for account holders who allow it (decisions.md). Off by default. */
  agentic_checkout: { default: false, parse: parseOnOff },
} as const;

export type SettingName = keyof typeof SETTINGS;
function parseOnOff(value: string): boolean {
  if (value === "on") return true;
  if (value === "off") return false;
  throw new Error(`expected on or off, got '${value}'`);
}

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTINGS, name);
}

export async function getSetting(client: DbClient, name: SettingName): Promise<boolean> {
  const row = await client.setting.findUnique({ where: { key: name } });
  return row ? Boolean(row.value) : SETTINGS[name].default;
}

/** Sets a setting from its text form (`on` / `off`); throws with a one-line reason when invalid. */
export async function setSetting(client: DbClient, name: SettingName, text: string): Promise<boolean> {
  const value = SETTINGS[name].parse(text);
  await client.setting.upsert({ where: { key: name }, create: { key: name, value }, update: { value } });
  return value;
}
